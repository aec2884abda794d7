// Security: change the password (POST /auth/change-password: every other device is signed out and
// this one keeps going with the fresh pair it is handed), the account's recent security activity
// (GET /security/audit, a page at a time) and 'Sign out everywhere' (POST /auth/logout-all, then
// this browser signs out and goes to /login).
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useRouter } from '@tanstack/react-router';
import { AUTH_MESSAGES, changePasswordInput, type AuditLogEntry } from '@tradie/contracts';
import { type KeyboardEvent, useId, useState } from 'react';
import { api, storeTokens } from '../../api/client.ts';
import { useAuth } from '../../app/useAuth.ts';
import { useCommand } from '../shared/command.ts';
import { auditLogQuery, changePassword, signOutEverywhere } from './queries.ts';
import { browserName, formatAuditTime, SECURITY_TEXT, shownIp } from './security.ts';
import { Card } from '../../ui/Card.tsx';
import { LoadingLine } from '../../ui/Status.tsx';

/** Entries worth a second look: shown with a warning edge. */
const WARNING_KINDS: ReadonlySet<string> = new Set(['sign_in_failed', 'session_reuse_detected']);

function ActivityEntry({ entry }: { entry: AuditLogEntry }) {
  const ip = shownIp(entry.ip);
  return (
    <li className={`security-entry${WARNING_KINDS.has(entry.kind) ? ' security-entry--warning' : ''}`}>
      <p className="security-entry__what">{entry.description}</p>
      <p className="security-entry__meta">
        <time dateTime={entry.at}>{formatAuditTime(entry.at)}</time>
        <span>{browserName(entry.user_agent)}</span>
        {ip && <span>IP {ip}</span>}
      </p>
    </li>
  );
}

function PasswordInput({ id, label, value, onChange, autoComplete }: { id: string; label: string; value: string; onChange: (v: string) => void; autoComplete: string }) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
      </label>
      <input id={id} className="input" type="password" value={value} onChange={(e) => onChange(e.target.value)} autoComplete={autoComplete} maxLength={200} />
    </div>
  );
}

/** The first problem with the form, checked with the schema the API uses; null when it can go. */
export function changePasswordProblem(current: string, next: string, confirm: string): string | null {
  if (next !== confirm) return AUTH_MESSAGES.resetPasswordsDontMatch;
  const parsed = changePasswordInput.safeParse({ current_password: current, new_password: next });
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? null);
}

function ChangePasswordCard() {
  const uid = useId();
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const change = useCommand({
    run: ({ from, to }: { from: string; to: string }) => changePassword(api, from, to),
    failed: 'Your password could not be changed. Please try again.',
    onDone: (answer) => {
      // Every other session ended on the server; this browser carries on with its new pair.
      storeTokens(globalThis.localStorage, answer);
      setCurrent('');
      setNext('');
      setConfirm('');
      void queryClient.invalidateQueries({ queryKey: auditLogQuery(api).queryKey });
    },
  });
  const busy = change.pending;
  const message: { kind: 'error' | 'success'; text: string } | null = change.error
    ? { kind: 'error', text: change.error }
    : change.result
      ? { kind: 'success', text: change.result.detail }
      : null;
  const submit = change.submit(() => {
    const problem = changePasswordProblem(current, next, confirm);
    return problem ? { ok: false, error: problem } : { ok: true, body: { from: current, to: next } };
  });

  return (
    <section className="card" aria-labelledby={`${uid}-title`}>
      <h2 id={`${uid}-title`} className="card__title">
        Change password
      </h2>
      <p className="card__intro">At least 8 characters, and not a common one. Every other device is signed out when you change it.</p>
      {/* Not a <form>: the Settings screen is one form already, and forms do not nest. Enter in a
          field changes the password here instead of saving the settings. */}
      <div
        className="security-password"
        onKeyDown={(e: KeyboardEvent) => {
          if (e.key === 'Enter' && e.target instanceof HTMLInputElement) {
            submit(e);
          }
        }}
      >
        {/* Lets password managers file the new password under the right account. */}
        <PasswordInput id={`${uid}-current`} label="Current Password" value={current} onChange={setCurrent} autoComplete="current-password" />
        <PasswordInput id={`${uid}-new`} label="New Password" value={next} onChange={setNext} autoComplete="new-password" />
        <PasswordInput id={`${uid}-confirm`} label="Confirm New Password" value={confirm} onChange={setConfirm} autoComplete="new-password" />
        {message && (
          <p className={`callout callout--${message.kind}`} role={message.kind === 'error' ? 'alert' : 'status'}>
            {message.text}
          </p>
        )}
        <button type="button" className="button button--primary" onClick={() => submit()} disabled={busy} aria-busy={busy}>
          {busy ? 'Changing password...' : 'Change Password'}
        </button>
      </div>
    </section>
  );
}

export function SecurityTab({ onFailure }: { onFailure: (text: string) => void }) {
  const auth = useAuth();
  const router = useRouter();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const activity = useInfiniteQuery(auditLogQuery(api));

  const items = activity.data?.pages.flatMap((p) => p.items) ?? [];

  const signOut = useCommand({
    run: () => signOutEverywhere(api),
    onDone: async () => {
      // Every device's refresh token is gone; this one also forgets its tokens and this account's data.
      await auth.logout();
      queryClient.clear();
      await router.invalidate();
      await navigate({ to: '/login' });
    },
    onFailed: (_, e) => {
      console.error('Could not sign out everywhere', e);
      onFailure(SECURITY_TEXT.signOutFailed);
    },
  });
  // Leaving: the button stays busy until this screen has gone.
  const leaving = signOut.pending || signOut.done;
  const signOutAll = () => {
    if (window.confirm(SECURITY_TEXT.signOutConfirm)) signOut.run();
  };

  return (
    <>
      <ChangePasswordCard />
      <Card titleId="security-activity-title" title={SECURITY_TEXT.activityTitle} className="security-card" aria-busy={activity.isPending || activity.isFetchingNextPage}>
        <p className="card__intro">{SECURITY_TEXT.activityIntro}</p>

        {activity.isPending && (
          <LoadingLine>{SECURITY_TEXT.loading}</LoadingLine>
        )}

        {activity.isError && items.length === 0 && (
          <div className="security-card__failed">
            <p className="callout callout--error">{SECURITY_TEXT.loadFailed}</p>
            <button type="button" className="button button--secondary" onClick={() => void activity.refetch()}>
              {SECURITY_TEXT.retry}
            </button>
          </div>
        )}

        {activity.isSuccess && items.length === 0 && <p className="security-empty">{SECURITY_TEXT.empty}</p>}

        {items.length > 0 && (
          <ul className="security-list" aria-labelledby="security-activity-title">
            {items.map((entry) => (
              <ActivityEntry key={entry.id} entry={entry} />
            ))}
          </ul>
        )}

        {activity.hasNextPage && (
          <button
            type="button"
            className="button button--ghost button--block security-card__more"
            onClick={() => void activity.fetchNextPage()}
            disabled={activity.isFetchingNextPage}
            aria-busy={activity.isFetchingNextPage}
          >
            {activity.isFetchingNextPage ? SECURITY_TEXT.loadingMore : SECURITY_TEXT.showMore}
          </button>
        )}
      </Card>

      <Card titleId="security-signout-title" title={SECURITY_TEXT.signOutTitle}>
        <p className="card__intro">{SECURITY_TEXT.signOutIntro}</p>
        <button type="button" className="button button--danger security-signout" onClick={signOutAll} disabled={leaving} aria-busy={leaving}>
          {leaving ? SECURITY_TEXT.signingOut : SECURITY_TEXT.signOutButton}
        </button>
      </Card>
    </>
  );
}
