// The client's answers to an open quote: accept (name, terms, optional signature), decline (reasons
// and a note) or ask for changes (a note). Each sends once, however many times it is tapped.
import { useRef, useState, type FormEvent } from 'react';
import { CLIENT_LINK_MESSAGES, DECLINE_REASON_LABELS, DECLINE_REASONS, SIGNATURE_MAX_CHARS, type PublicQuotePage } from '@tradie/contracts';
import { errorDetail, isApiError } from '../../api/client.ts';
import { FormButtons } from '../../ui/FormButtons.tsx';
import { FormField } from '../../ui/FormField.tsx';
import { ErrorAlert } from '../../ui/Status.tsx';
import { linkGone } from './parts.tsx';
import { acceptPublicQuote, declinePublicQuote, requestQuoteChanges, type PublicApi } from './queries.ts';
import { SignatureField, type SignatureHandle } from './SignatureField.tsx';

type Reason = (typeof DECLINE_REASONS)[number];

interface AnswerProps {
  api: PublicApi;
  token: string;
  page: PublicQuotePage;
  /** The page as the server answered it after the client's answer. */
  onAnswered: (page: PublicQuotePage) => void;
  /** The quote changed under the client (409): load it again. */
  onStale: () => void;
  /** The link stopped working while the page was open (404/410: withdrawn, the business closed): the page says why, full page. */
  onGone: () => void;
}

/** Runs `send` once at a time: a second tap while it is on its way does nothing. */
function useOnce() {
  const inFlight = useRef(false);
  const [pending, setPending] = useState(false);
  const run = async (send: () => Promise<void>) => {
    if (inFlight.current) return;
    inFlight.current = true;
    setPending(true);
    try {
      await send();
    } finally {
      inFlight.current = false;
      setPending(false);
    }
  };
  return { pending, run };
}

type Field = 'name' | 'terms';

export function AcceptForm({ api, token, page, onAnswered, onStale, onGone }: AnswerProps) {
  const [name, setName] = useState('');
  const [terms, setTerms] = useState(false);
  const [error, setError] = useState<{ field: Field | 'form'; text: string } | null>(null);
  const signature = useRef<SignatureHandle>(null);
  const { pending, run } = useOnce();
  const hasTerms = page.terms.trim() !== '';

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (name.trim() === '') return setError({ field: 'name', text: CLIENT_LINK_MESSAGES.nameRequired });
    if (hasTerms && !terms) return setError({ field: 'terms', text: CLIENT_LINK_MESSAGES.termsRequired });
    const png = signature.current?.read() ?? null;
    if (png !== null && png.length > SIGNATURE_MAX_CHARS) return setError({ field: 'form', text: CLIENT_LINK_MESSAGES.signatureTooLarge });
    setError(null);
    void run(async () => {
      try {
        onAnswered(
          await acceptPublicQuote(api, token, {
            signer_name: name.trim(),
            terms_accepted: hasTerms ? terms : false,
            signature_png: png,
            shown_sha256: page.shown_sha256,
            version: page.version,
          }),
        );
      } catch (err) {
        const stale = isApiError(err) && err.status === 409;
        setError({ field: 'form', text: errorDetail(err) ?? (stale ? CLIENT_LINK_MESSAGES.quoteChanged : 'Could not accept the quote. Please try again.') });
        if (stale) onStale();
        if (linkGone(err)) onGone();
      }
    });
  };
  // A field the check refused is marked invalid and described by the message, until it is changed.
  const refusal = (field: Field) => ({
    'aria-invalid': error?.field === field || undefined,
    'aria-describedby': error?.field === field ? 'client-accept-error' : undefined,
  });
  const changed = (field: Field) => {
    if (error?.field === field) setError(null);
  };

  return (
    <form className="card client-card client-accept" aria-labelledby="client-accept-title" onSubmit={submit} noValidate>
      <h2 id="client-accept-title" className="card__title">
        Accept this quote
      </h2>
      {hasTerms && (
        <div className="client-terms">
          <h3 className="client-terms__title">Terms</h3>
          <div className="client-terms__text" tabIndex={0} aria-label="The terms">
            {page.terms}
          </div>
          <label className="choice client-terms__tick">
            <input
              type="checkbox"
              checked={terms}
              onChange={(e) => {
                setTerms(e.target.checked);
                changed('terms');
              }}
              {...refusal('terms')}
            />
            <span>I have read and accept the terms</span>
          </label>
        </div>
      )}
      <FormField id="client-signer-name" label="Your full name">
        {() => (
          <input
            id="client-signer-name"
            className="input"
            type="text"
            autoComplete="name"
            autoCapitalize="words"
            enterKeyHint="done"
            maxLength={120}
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              changed('name');
            }}
            {...refusal('name')}
          />
        )}
      </FormField>
      <SignatureField ref={signature} disabled={pending} />
      <ErrorAlert id="client-accept-error" message={error?.text} />
      <button type="submit" className="button button--accent button--large button--block" disabled={pending} aria-busy={pending}>
        {pending ? 'Accepting...' : 'Accept quote'}
      </button>
    </form>
  );
}

/** Decline and Ask for changes: two buttons that open their forms. */
export function OtherAnswers(props: AnswerProps) {
  const [open, setOpen] = useState<'none' | 'decline' | 'changes'>('none');
  return (
    <section className="card client-card client-other" aria-labelledby="client-other-title">
      <h2 id="client-other-title" className="card__title">
        Not quite right?
      </h2>
      <div className="client-other__buttons">
        <button type="button" className="button button--secondary" aria-expanded={open === 'changes'} onClick={() => setOpen(open === 'changes' ? 'none' : 'changes')}>
          Ask for changes
        </button>
        <button type="button" className="button button--secondary" aria-expanded={open === 'decline'} onClick={() => setOpen(open === 'decline' ? 'none' : 'decline')}>
          Decline
        </button>
      </div>
      {open === 'changes' && <ChangesForm {...props} onCancel={() => setOpen('none')} />}
      {open === 'decline' && <DeclineForm {...props} onCancel={() => setOpen('none')} />}
    </section>
  );
}

function ChangesForm({ api, token, onAnswered, onGone, onCancel }: AnswerProps & { onCancel: () => void }) {
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { pending, run } = useOnce();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (note.trim() === '') return setError(CLIENT_LINK_MESSAGES.changesRequired);
    setError(null);
    void run(async () => {
      try {
        onAnswered(await requestQuoteChanges(api, token, { note: note.trim() }));
        onCancel();
      } catch (err) {
        setError(errorDetail(err) ?? 'Could not send your message. Please try again.');
        if (linkGone(err)) onGone();
      }
    });
  };
  return (
    <form className="client-subform" onSubmit={submit} noValidate aria-label="Ask for changes">
      <FormField id="client-changes-note" label="What would you like changed?">
        {() => (
          <textarea
            id="client-changes-note"
            className="input client-textarea"
            rows={4}
            maxLength={2000}
            value={note}
            onChange={(e) => setNote(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'client-changes-error' : undefined}
          />
        )}
      </FormField>
      <ErrorAlert id="client-changes-error" message={error} />
      <FormButtons className="client-subform__buttons" submit={pending ? 'Sending...' : 'Send request'} busy={pending} onCancel={onCancel} cancelWhileBusy />
    </form>
  );
}

function DeclineForm({ api, token, onAnswered, onGone, onCancel }: AnswerProps & { onCancel: () => void }) {
  const [reasons, setReasons] = useState<Reason[]>([]);
  const [note, setNote] = useState('');
  const [error, setError] = useState<string | null>(null);
  const { pending, run } = useOnce();
  const toggle = (r: Reason, on: boolean) => setReasons((prev) => (on ? [...prev, r] : prev.filter((x) => x !== r)));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    void run(async () => {
      try {
        onAnswered(await declinePublicQuote(api, token, { reasons: DECLINE_REASONS.filter((r) => reasons.includes(r)), note: note.trim() }));
      } catch (err) {
        setError(errorDetail(err) ?? 'Could not decline the quote. Please try again.');
        if (linkGone(err)) onGone();
      }
    });
  };
  return (
    <form className="client-subform" onSubmit={submit} noValidate aria-label="Decline the quote">
      <fieldset className="choice-group client-reasons">
        <legend className="field__label">Why? (optional)</legend>
        {DECLINE_REASONS.map((r) => (
          <label key={r} className="client-reason">
            <input type="checkbox" checked={reasons.includes(r)} onChange={(e) => toggle(r, e.target.checked)} />
            <span>{DECLINE_REASON_LABELS[r]}</span>
          </label>
        ))}
      </fieldset>
      <FormField id="client-decline-note" label="Anything else to tell them? (optional)">
        {() => <textarea id="client-decline-note" className="input client-textarea" rows={3} maxLength={1000} value={note} onChange={(e) => setNote(e.target.value)} />}
      </FormField>
      <ErrorAlert message={error} />
      <FormButtons className="client-subform__buttons" submit={pending ? 'Sending...' : 'Decline quote'} busy={pending} onCancel={onCancel} cancelWhileBusy danger />
    </form>
  );
}
