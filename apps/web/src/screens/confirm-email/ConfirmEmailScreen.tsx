import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearch } from '@tanstack/react-router';
import { SENDING_MESSAGES } from '@tradie/contracts';
import { api, errorDetail, isApiError } from '../../api/client.ts';
import { AuthCard, AuthFooterLink, AuthSuccess } from '../login/AuthCard.tsx';
import { confirmEmail } from '../login/queries.ts';
import { CheckIcon } from '../../ui/icons.tsx';

type Outcome = { kind: 'checking' } | { kind: 'confirmed'; detail: string } | { kind: 'failed'; detail: string; retry: boolean };

/**
 * /confirm-email?token=… — the link in the confirmation email, opened signed in or not: the token
 * is posted at once and the answer shown, with a way into the app.
 */
export function ConfirmEmailScreen() {
  const { token } = useSearch({ from: '/open/confirm-email' });
  const [outcome, setOutcome] = useState<Outcome>(token ? { kind: 'checking' } : { kind: 'failed', detail: SENDING_MESSAGES.confirmLinkInvalid, retry: false });
  const heading = useRef<HTMLHeadingElement>(null);
  /** The token already posted: once per link, also when effects run twice. */
  const posted = useRef<string | null>(null);

  const confirm = useCallback(async (value: string) => {
    setOutcome({ kind: 'checking' });
    try {
      const answer = await confirmEmail(api, value);
      setOutcome({ kind: 'confirmed', detail: answer.detail });
    } catch (err) {
      // No answer at all (a weak signal): the link may still be good, so it can be tried again.
      setOutcome({ kind: 'failed', detail: errorDetail(err) ?? SENDING_MESSAGES.confirmLinkInvalid, retry: isApiError(err) && err.status === 0 });
    }
  }, []);

  useEffect(() => {
    if (!token || posted.current === token) return;
    posted.current = token;
    void confirm(token);
  }, [token, confirm]);

  useEffect(() => {
    if (outcome.kind !== 'checking') heading.current?.focus();
  }, [outcome.kind]);

  if (outcome.kind === 'confirmed') {
    return (
      <AuthSuccess titleId="confirm-done-title" title="Email confirmed" icon={<CheckIcon />} headingRef={heading} action={{ to: '/app/invoices', label: 'Go to Invoices & Quotes' }}>
        <p role="status">{outcome.detail}</p>
      </AuthSuccess>
    );
  }

  return (
    <AuthCard
      title="Confirm your email"
      titleId="confirm-title"
      footer={<AuthFooterLink to="/app/home">Open Tradie Quotes</AuthFooterLink>}
    >
      {outcome.kind === 'checking' ? (
        <p className="auth-notice" role="status">
          Confirming your email address…
        </p>
      ) : (
        <>
          <p className="callout callout--error auth-notice" role="alert">
            {outcome.detail}
          </p>
          {outcome.retry && token ? (
            <button type="button" className="button button--primary button--block" onClick={() => void confirm(token)}>
              Try again
            </button>
          ) : (
            <p className="auth-card__subtitle">
              To get a new link, open a quote or invoice, choose Send, then &lsquo;Resend confirmation email&rsquo;.
            </p>
          )}
        </>
      )}
    </AuthCard>
  );
}
