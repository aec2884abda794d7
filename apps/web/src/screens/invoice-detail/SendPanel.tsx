import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { EMAIL_UNCONFIRMED_CODE, type DocumentDetail, type SendResult } from '@tradie/contracts';
import { api, isApiError } from '../../api/client.ts';
import { useCommand } from '../shared/command.ts';
import { useIdempotencyKeys } from '../shared/idempotency.ts';
import { resendConfirmation } from '../login/queries.ts';
import { businessSettingsQuery } from '../shared/queries.ts';

interface Props {
  doc: DocumentDetail;
  onSend: (idempotencyKey: string) => Promise<SendResult>;
  onSent: (result: SendResult) => void;
  onCancel: () => void;
}

/**
 * Before sending: who it goes to (the client's email) and the CC/BCC from business settings, then
 * a confirm. The answer says what happened to the email (`outcome`): delivered, or only saved to
 * the outbox when no mail server is set up — onSent says which, never 'sent' for the outbox. The
 * server answers 422 when the client has no email or the mail server refused the recipient (that
 * attempt is listed under Emails, not delivered), 503 when mail is down, 429 over the account's
 * sending limits; its sentence is shown as it is. A 403 `email_unconfirmed` (the account's email
 * address is not confirmed yet) also offers to resend the confirmation email.
 */

/** True for the send's 403 that asks the user to confirm their email address first. */
export const isEmailUnconfirmed = (err: unknown): boolean =>
  isApiError(err) && err.status === 403 && (err.body as { code?: unknown } | undefined)?.code === EMAIL_UNCONFIRMED_CODE;

export function SendPanel({ doc, onSend, onSent, onCancel }: Props) {
  const id = useId();
  const settings = useQuery({ ...businessSettingsQuery(api), retry: false });
  const [unconfirmed, setUnconfirmed] = useState(false);
  const [resendNote, setResendNote] = useState<{ text: string; ok: boolean } | null>(null);
  const { keyFor } = useIdempotencyKeys();
  const heading = useRef<HTMLHeadingElement>(null);
  const noun = doc.type === 'quote' ? 'Quote' : 'Invoice';
  const to = doc.client?.email ?? '';
  const cc = settings.data?.cc_email ?? '';
  const bcc = settings.data?.bcc_email ?? '';

  useEffect(() => {
    heading.current?.focus();
  }, []);

  const sending = useCommand({
    run: () => onSend(keyFor('send', doc.id)),
    failed: `Could not send the ${noun.toLowerCase()}`,
    onDone: onSent,
    onFailed: (_, err) => {
      setUnconfirmed(isEmailUnconfirmed(err));
      setResendNote(null);
    },
  });
  const busy = sending.pending;
  const error = sending.error;

  const resend = useCommand({
    run: () => resendConfirmation(api),
    failed: 'Could not resend the confirmation email',
    onDone: (answer) => setResendNote({ text: answer.detail, ok: true }),
    onFailed: (text) => setResendNote({ text, ok: false }),
  });
  const resending = resend.pending;

  return (
    <section className="card card--emphasis detail-form detail-send" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} ref={heading} tabIndex={-1} className="card__title">
        Send {noun.toLowerCase()} {doc.reference}
      </h3>
      <dl className="detail-send__recipients">
        <div>
          <dt>To</dt>
          <dd>{to || <span className="detail-send__missing">{doc.client ? 'No email address for this client' : `No client on this ${noun.toLowerCase()}`}</span>}</dd>
        </div>
        {cc && (
          <div>
            <dt>CC</dt>
            <dd>{cc}</dd>
          </div>
        )}
        {bcc && (
          <div>
            <dt>BCC</dt>
            <dd>{bcc}</dd>
          </div>
        )}
      </dl>
      <p className="field__hint">The PDF is attached. The subject and message come from your email settings.</p>
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
        <button type="button" className="button button--accent" onClick={() => sending.run()} disabled={busy} aria-busy={busy}>
          {busy ? 'Sending...' : `Send ${noun}`}
        </button>
        <button type="button" className="button button--ghost" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </section>
  );
}
