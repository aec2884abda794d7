// The client's answers to an open quote: accept (name, terms, optional signature), decline (reasons
// and a note) or ask for changes (a note). Each is a command (useCommand): it sends once, however
// many times it is tapped.
import { useRef, useState } from 'react';
import { CLIENT_LINK_MESSAGES, DECLINE_REASON_LABELS, DECLINE_REASONS, SIGNATURE_MAX_CHARS, type PublicQuotePage } from '@tradie/contracts';
import { errorDetail, isApiError } from '../../api/client.ts';
import { FormButtons } from '../../ui/FormButtons.tsx';
import { FormField } from '../../ui/FormField.tsx';
import { ErrorAlert } from '../../ui/Status.tsx';
import { useCommand } from '../shared/command.ts';
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

type Field = 'name' | 'terms';

export function AcceptForm({ api, token, page, onAnswered, onStale, onGone }: AnswerProps) {
  const [name, setName] = useState('');
  const [terms, setTerms] = useState(false);
  const signature = useRef<SignatureHandle>(null);
  const hasTerms = page.terms.trim() !== '';
  const accept = useCommand({
    run: (body: Parameters<typeof acceptPublicQuote>[2]) => acceptPublicQuote(api, token, body),
    failed: 'Could not accept the quote. Please try again.',
    onDone: (answered) => onAnswered(answered),
    onFailed: (_message, err) => {
      if (isApiError(err) && err.status === 409) onStale();
      if (linkGone(err)) onGone();
    },
  });
  const { pending } = accept;
  // The browser's checks name their field; anything the server said is about the whole form.
  const stale = isApiError(accept.failure) && accept.failure.status === 409;
  const error: { field: Field | 'form'; text: string } | null =
    accept.invalid === CLIENT_LINK_MESSAGES.nameRequired ? { field: 'name', text: accept.invalid }
    : accept.invalid === CLIENT_LINK_MESSAGES.termsRequired ? { field: 'terms', text: accept.invalid }
    : accept.error ? { field: 'form', text: stale && errorDetail(accept.failure) === undefined ? CLIENT_LINK_MESSAGES.quoteChanged : accept.error }
    : null;

  const submit = accept.submit(() => {
    if (name.trim() === '') return { ok: false, error: CLIENT_LINK_MESSAGES.nameRequired };
    if (hasTerms && !terms) return { ok: false, error: CLIENT_LINK_MESSAGES.termsRequired };
    const png = signature.current?.read() ?? null;
    if (png !== null && png.length > SIGNATURE_MAX_CHARS) return { ok: false, error: CLIENT_LINK_MESSAGES.signatureTooLarge };
    return {
      ok: true,
      body: { signer_name: name.trim(), terms_accepted: hasTerms ? terms : false, signature_png: png, shown_sha256: page.shown_sha256, version: page.version },
    };
  });
  // A field the check refused is marked invalid and described by the message, until it is changed.
  const refusal = (field: Field) => ({
    'aria-invalid': error?.field === field || undefined,
    'aria-describedby': error?.field === field ? 'client-accept-error' : undefined,
  });
  const changed = (field: Field) => {
    if (error?.field === field) accept.clearInvalid();
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
  const ask = useCommand({
    run: (body: { note: string }) => requestQuoteChanges(api, token, body),
    failed: 'Could not send your message. Please try again.',
    onDone: (answered) => {
      onAnswered(answered);
      onCancel();
    },
    onFailed: (_message, err) => {
      if (linkGone(err)) onGone();
    },
  });
  const { pending, error } = ask;
  const submit = ask.submit(() => (note.trim() === '' ? { ok: false, error: CLIENT_LINK_MESSAGES.changesRequired } : { ok: true, body: { note: note.trim() } }));
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
  const decline = useCommand({
    run: (body: { reasons: Reason[]; note: string }) => declinePublicQuote(api, token, body),
    failed: 'Could not decline the quote. Please try again.',
    onDone: (answered) => onAnswered(answered),
    onFailed: (_message, err) => {
      if (linkGone(err)) onGone();
    },
  });
  const { pending, error } = decline;
  const toggle = (r: Reason, on: boolean) => setReasons((prev) => (on ? [...prev, r] : prev.filter((x) => x !== r)));
  const submit = decline.submit(() => ({ ok: true, body: { reasons: DECLINE_REASONS.filter((r) => reasons.includes(r)), note: note.trim() } }));
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
