import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { EMAIL_UNCONFIRMED_CODE, type DocumentDetail, type SendDocumentInput, type SendResult } from '@tradie/contracts';
import { api, isApiError } from '../../api/client.ts';
import { useCommand } from '../shared/command.ts';
import { useIdempotencyKeys } from '../shared/idempotency.ts';
import { resendConfirmation } from '../login/queries.ts';
import { sendPreviewQuery } from './queries.ts';

interface Props {
  doc: DocumentDetail;
  onSend: (idempotencyKey: string, body: SendDocumentInput) => Promise<SendResult>;
  onSent: (result: SendResult) => void;
  onCancel: () => void;
}

/**
 * The Send sheet: it opens where the thumb is (fixed to the bottom of a phone's screen, a dialog in
 * the middle of a wide one), filled in from the email a send with no changes would make
 * (GET /invoices/{id}/send-preview, the server's own composing code): To, CC, the subject and the
 * message, each editable, and what follows the message in words. The answer says what happened to
 * the email (`outcome`): delivered, or only saved to the outbox when no mail server is set up —
 * onSent says which, never 'sent' for the outbox. The server answers 422 when no address is given or
 * the mail server refused the recipient (that attempt is listed under Emails, not delivered), 503
 * when mail is down, 429 over the account's sending limits; its sentence is shown as it is. A 403
 * `email_unconfirmed` (the account's email address is not confirmed yet) also offers to resend the
 * confirmation email. Escape, Cancel and a tap outside close it.
 */

/** True for the send's 403 that asks the user to confirm their email address first. */
export const isEmailUnconfirmed = (err: unknown): boolean =>
  isApiError(err) && err.status === 403 && (err.body as { code?: unknown } | undefined)?.code === EMAIL_UNCONFIRMED_CODE;

/** 'a@b.nz, c@d.nz' or one per line → the addresses. */
const addresses = (text: string): string[] =>
  text
    .split(/[,;\s]+/)
    .map((a) => a.trim())
    .filter((a) => a !== '');

type Draft = { to: string; cc: string; subject: string; message: string };

export function SendPanel({ doc, onSend, onSent, onCancel }: Props) {
  const id = useId();
  const preview = useQuery({ ...sendPreviewQuery(api, doc.id), retry: false });
  const [draft, setDraft] = useState<Draft | null>(null);
  const [unconfirmed, setUnconfirmed] = useState(false);
  const [resendNote, setResendNote] = useState<{ text: string; ok: boolean } | null>(null);
  const { keyFor } = useIdempotencyKeys();
  const heading = useRef<HTMLHeadingElement>(null);
  const noun = doc.type === 'quote' ? 'Quote' : 'Invoice';

  // Filled in once from the preview; what the tradie types is theirs from then on.
  useEffect(() => {
    if (preview.data && draft === null) setDraft({ to: preview.data.to.join(', '), cc: preview.data.cc.join(', '), subject: preview.data.subject, message: preview.data.message });
  }, [preview.data, draft]);

  useEffect(() => {
    heading.current?.focus();
  }, []);

  const sending = useCommand({
    run: (body: SendDocumentInput) => onSend(keyFor('send', doc.id), body),
    failed: `Could not send the ${noun.toLowerCase()}`,
    onDone: onSent,
    onFailed: (_, err) => {
      setUnconfirmed(isEmailUnconfirmed(err));
      setResendNote(null);
    },
  });
  const busy = sending.pending;
  const error = sending.error;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !busy) onCancel();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [busy, onCancel]);

  const resend = useCommand({
    run: () => resendConfirmation(api),
    failed: 'Could not resend the confirmation email',
    onDone: (answer) => setResendNote({ text: answer.detail, ok: true }),
    onFailed: (text) => setResendNote({ text, ok: false }),
  });
  const resending = resend.pending;
  const set = (key: keyof Draft) => (e: { target: { value: string } }) => setDraft((d) => (d ? { ...d, [key]: e.target.value } : d));

  return (
    <div className="sheet">
      <div className="sheet__backdrop" aria-hidden="true" onClick={() => !busy && onCancel()} />
      <section className="card card--emphasis detail-form detail-send sheet__panel" role="dialog" aria-modal="true" aria-labelledby={`${id}-title`}>
        <h3 id={`${id}-title`} ref={heading} tabIndex={-1} className="card__title">
          Send {noun.toLowerCase()} {doc.reference}
        </h3>
        {preview.isPending && <p className="field__hint">Getting the email ready…</p>}
        {preview.isError && (
          <p className="callout callout--error" role="alert">
            Couldn&apos;t get the email ready. Close this and try again.
          </p>
        )}
        {draft && (
          <form
            noValidate
            onSubmit={sending.submit(() =>
              addresses(draft.to).length === 0
                ? { ok: false, error: doc.client?.email ? 'Add the email address to send it to.' : 'This client has no email address. Type the address to send it to.' }
                : { ok: true, body: { to: addresses(draft.to), cc: addresses(draft.cc), subject: draft.subject, message: draft.message } },
            )}
          >
            <div className="field">
              <label htmlFor={`${id}-to`} className="field__label">
                To
              </label>
              <input id={`${id}-to`} className="input" type="email" multiple inputMode="email" autoComplete="email" value={draft.to} onChange={set('to')} aria-describedby={`${id}-to-hint`} />
              <p id={`${id}-to-hint`} className="field__hint">
                {doc.client?.email ? 'Separate more than one address with commas.' : 'This client has no email address saved: type it here.'}
              </p>
            </div>
            <div className="field">
              <label htmlFor={`${id}-cc`} className="field__label">
                CC
              </label>
              <input id={`${id}-cc`} className="input" type="email" multiple inputMode="email" value={draft.cc} onChange={set('cc')} />
            </div>
            <div className="field">
              <label htmlFor={`${id}-subject`} className="field__label">
                Subject
              </label>
              <input id={`${id}-subject`} className="input" value={draft.subject} maxLength={300} onChange={set('subject')} />
            </div>
            <div className="field">
              <label htmlFor={`${id}-message`} className="field__label">
                Message
              </label>
              <textarea id={`${id}-message`} className="input detail-send__message" rows={6} value={draft.message} onChange={set('message')} aria-describedby={`${id}-after`} />
              <p id={`${id}-after`} className="field__hint">
                {preview.data?.after}
              </p>
            </div>
            {error && (
              <p className="callout callout--error" role="alert">
                {error}
              </p>
            )}
            {unconfirmed && (
              <div className="detail-send__confirm">
                <button type="button" className="button button--secondary" onClick={() => resend.run()} disabled={resending} aria-busy={resending}>
                  {resending ? 'Sending...' : 'Resend confirmation email'}
                </button>
                <p className={resendNote ? `callout ${resendNote.ok ? 'callout--success' : 'callout--error'}` : 'detail-send__note--empty'} role="status">
                  {resendNote?.text}
                </p>
              </div>
            )}
            <div className="detail-form__buttons">
              <button type="submit" className="button button--accent" disabled={busy} aria-busy={busy}>
                {busy ? 'Sending...' : `Send ${noun}`}
              </button>
              <button type="button" className="button button--ghost" onClick={onCancel} disabled={busy}>
                Cancel
              </button>
            </div>
          </form>
        )}
        {!draft && (
          <div className="detail-form__buttons">
            <button type="button" className="button button--ghost" onClick={onCancel}>
              Cancel
            </button>
          </div>
        )}
      </section>
    </div>
  );
}
