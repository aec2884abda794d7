// Account: change the email address (POST /account/change-email: a link goes to the new address,
// which takes over only when it is opened), a way to the password (it is changed in the Security
// tab), Download my data (GET /account/export: the whole account as one JSON file) and Delete my
// account (the data offered first, then the typed word and the password; POST /account/delete,
// then this browser signs out and a goodbye screen is shown).
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { ACCOUNT_MESSAGES, ACCOUNT_PURGE_DAYS, changeEmailInput, type ChangeEmailResult, DELETE_CONFIRMATION_WORD } from '@tradie/contracts';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { api, clearTokens, errorDetail } from '../../api/client.ts';
import { useAuth, useSessionUser } from '../../app/useAuth.ts';
import { Card } from '../../ui/Card.tsx';

export const ACCOUNT_TEXT = {
  emailTitle: 'Email address',
  emailIntro: 'We send a link to the new address. Your email changes when you open it; until then you keep signing in with the current one.',
  emailFailed: 'Your email address could not be changed. Please try again.',
  passwordTitle: 'Password',
  passwordIntro: 'Change your password, see recent sign-ins and sign out everywhere in the Security tab.',
  exportTitle: 'Download my data',
  exportIntro:
    'Everything in your account as one file: every client, quote, invoice and payment as it happened, your business settings and logo. ' +
    'Keep it with your business records — New Zealand asks businesses to keep their records for 7 years.',
  exportFailed: 'Your data could not be downloaded. Please try again.',
  exportDone: 'Your data has been downloaded.',
  deleteTitle: 'Delete my account',
  deleteIntro: `Deleting your account cancels your subscription, disconnects Xero and signs you out on every device at once. Everything in the account is erased within ${ACCOUNT_PURGE_DAYS} days and cannot be brought back.`,
  deleteExportFirst: 'Download your data first: after deleting, nobody (not even us) can give it to you.',
  deleteConfirmLabel: `Type ${DELETE_CONFIRMATION_WORD} to confirm`,
  deleteFailed: 'Your account could not be deleted. Please try again.',
  goodbyeTitle: 'Your account has been deleted',
  goodbyeBody: `Thank you for using Tradie Quotes. You have been signed out, and your personal data will be erased within ${ACCOUNT_PURGE_DAYS} days.`,
} as const;

type Message = { kind: 'error' | 'success' | 'warning'; text: string } | null;

function Callout({ message }: { message: Message }) {
  if (!message) return null;
  return (
    <p className={`callout callout--${message.kind}`} role={message.kind === 'error' ? 'alert' : 'status'}>
      {message.text}
    </p>
  );
}

/** The account's current password, asked for before a change to the account itself. */
function PasswordField({ id, value, onChange }: { id: string; value: string; onChange: (value: string) => void }) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        Password
      </label>
      <input id={id} className="input" type="password" autoComplete="current-password" value={value} onChange={(e) => onChange(e.target.value)} maxLength={200} />
    </div>
  );
}

/**
 * A task behind a button: `busy` while it runs, then its outcome as a message, the text it returns,
 * or when it throws the server's sentence (else `failed`).
 */
function useBusyTask() {
  const [busy, setBusy] = useState(false);
  const run = async (task: () => Promise<string>, failed: string): Promise<Message> => {
    setBusy(true);
    try {
      return { kind: 'success', text: await task() };
    } catch (err) {
      return { kind: 'error', text: errorDetail(err) ?? failed };
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}

/** Enter in a field acts on its own card: the Settings screen is one form already, and forms do not nest. */
const onEnter = (act: () => void) => (e: KeyboardEvent) => {
  if (e.key === 'Enter' && e.target instanceof HTMLInputElement) {
    e.preventDefault();
    act();
  }
};

/**
 * The new address and the password; the answer says what happened to the confirmation email, as a
 * send of a document does: sent (success), or only saved to the server's outbox (a warning: nobody got it).
 */
export function ChangeEmailCard({ current }: { current: string }) {
  const uid = useId();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, run } = useBusyTask();
  const [message, setMessage] = useState<Message>(null);

  const submit = async () => {
    const parsed = changeEmailInput.safeParse({ new_email: email, password });
    if (!parsed.success) {
      setMessage({ kind: 'error', text: parsed.error.issues[0]?.message ?? ACCOUNT_TEXT.emailFailed });
      return;
    }
    setMessage(null);
    let delivered = true;
    const outcome = await run(async () => {
      const answer = await api.post<ChangeEmailResult>('/account/change-email', parsed.data);
      setEmail('');
      setPassword('');
      delivered = answer.outcome === 'delivered';
      return answer.detail;
    }, ACCOUNT_TEXT.emailFailed);
    setMessage(outcome?.kind === 'success' && !delivered ? { kind: 'warning', text: outcome.text } : outcome);
  };

  return (
    <Card titleId={`${uid}-title`} title={ACCOUNT_TEXT.emailTitle}>
      <p className="card__intro">{ACCOUNT_TEXT.emailIntro}</p>
      <div className="form-grid" onKeyDown={onEnter(() => void submit())}>
        <div className="field">
          <label className="field__label" htmlFor={`${uid}-current`}>
            Current Email
          </label>
          <input id={`${uid}-current`} className="input" type="email" value={current} readOnly />
        </div>
        <div className="field">
          <label className="field__label" htmlFor={`${uid}-new`}>
            New Email
          </label>
          <input id={`${uid}-new`} className="input" type="email" inputMode="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} maxLength={254} />
        </div>
        <PasswordField id={`${uid}-password`} value={password} onChange={setPassword} />
      </div>
      <Callout message={message} />
      <button type="button" className="button button--primary" onClick={() => void submit()} disabled={busy} aria-busy={busy}>
        {busy ? 'Sending link...' : 'Change Email'}
      </button>
    </Card>
  );
}

/** The export as a file download: fetched with the session, saved under the server's name for it. */
async function downloadMyData(): Promise<void> {
  const blob = await api.blob('/account/export');
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `tradie-export-${new Date().toISOString().slice(0, 10)}.json`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function DownloadButton({ onDone, label = 'Download My Data' }: { onDone: (m: Message) => void; label?: string }) {
  const { busy, run } = useBusyTask();
  const download = async () => {
    const outcome = await run(async () => {
      await downloadMyData();
      return ACCOUNT_TEXT.exportDone;
    }, ACCOUNT_TEXT.exportFailed);
    onDone(outcome);
  };
  return (
    <button type="button" className="button button--secondary" onClick={() => void download()} disabled={busy} aria-busy={busy}>
      {busy ? 'Preparing download...' : label}
    </button>
  );
}

function Goodbye() {
  const heading = useRef<HTMLHeadingElement>(null);
  // Over the whole app: the screens behind it belong to an account that no longer exists, so they
  // are made inert (no focus, no taps, hidden from assistive technology) while it shows.
  useEffect(() => {
    heading.current?.focus();
    const app = document.getElementById('root');
    app?.setAttribute('inert', '');
    return () => app?.removeAttribute('inert');
  }, []);
  return createPortal(
    <div
      role="dialog"
      aria-modal="true"
      className="account-goodbye"
      aria-labelledby="account-goodbye-title"
      style={{ position: 'fixed', inset: 0, zIndex: 1000, overflow: 'auto', background: 'var(--color-surface, #fff)', padding: '3rem 1.5rem' }}
    >
      <div style={{ maxWidth: '32rem', margin: '0 auto' }}>
        <h1 id="account-goodbye-title" className="screen-title" ref={heading} tabIndex={-1}>
          {ACCOUNT_TEXT.goodbyeTitle}
        </h1>
        <p>{ACCOUNT_TEXT.goodbyeBody}</p>
        <p>Ka kite anō — see you again.</p>
        <a className="button button--primary" href="/">
          Go to the home page
        </a>
      </div>
    </div>,
    document.body,
  );
}

function DeleteAccountCard() {
  const uid = useId();
  const auth = useAuth();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [word, setWord] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message>(null);
  const [gone, setGone] = useState(false);
  const ready = word.trim() === DELETE_CONFIRMATION_WORD && password !== '';

  const submit = async () => {
    if (word.trim() !== DELETE_CONFIRMATION_WORD) {
      setMessage({ kind: 'error', text: ACCOUNT_MESSAGES.confirmationWrong });
      return;
    }
    if (password === '') {
      setMessage({ kind: 'error', text: ACCOUNT_MESSAGES.passwordRequired });
      return;
    }
    setBusy(true);
    setMessage(null);
    try {
      await api.post('/account/delete', { confirm: word.trim(), password });
    } catch (err) {
      setMessage({ kind: 'error', text: errorDetail(err) ?? ACCOUNT_TEXT.deleteFailed });
      setBusy(false);
      return;
    }
    // Every session already ended on the server; this browser forgets its tokens and the account's data.
    try {
      await auth.logout();
    } catch (e) {
      console.error('Signing out after deleting the account', e);
    }
    clearTokens(globalThis.localStorage);
    queryClient.clear();
    setGone(true);
  };

  if (gone) return <Goodbye />;

  return (
    <Card titleId={`${uid}-title`} title={ACCOUNT_TEXT.deleteTitle} className="account-delete">
      <p className="card__intro">{ACCOUNT_TEXT.deleteIntro}</p>
      {!open ? (
        <button type="button" className="button button--danger" onClick={() => setOpen(true)}>
          Delete My Account...
        </button>
      ) : (
        <div className="form-grid" onKeyDown={onEnter(() => void submit())}>
          <p className="callout callout--warning">{ACCOUNT_TEXT.deleteExportFirst}</p>
          <DownloadButton onDone={setMessage} label="Download My Data First" />
          <div className="field">
            <label className="field__label" htmlFor={`${uid}-word`}>
              {ACCOUNT_TEXT.deleteConfirmLabel}
            </label>
            <input id={`${uid}-word`} className="input" type="text" autoComplete="off" autoCapitalize="characters" spellCheck={false} value={word} onChange={(e) => setWord(e.target.value)} maxLength={100} />
          </div>
          <PasswordField id={`${uid}-password`} value={password} onChange={setPassword} />
          <Callout message={message} />
          <div>
            <button type="button" className="button button--danger" onClick={() => void submit()} disabled={busy || !ready} aria-busy={busy}>
              {busy ? 'Deleting account...' : 'Delete My Account Permanently'}
            </button>{' '}
            <button type="button" className="button button--secondary" onClick={() => setOpen(false)} disabled={busy}>
              Keep My Account
            </button>
          </div>
        </div>
      )}
      {!open && <Callout message={message} />}
    </Card>
  );
}

export function AccountTab() {
  const user = useSessionUser();
  const navigate = useNavigate({ from: '/app/settings' });
  const uid = useId();
  const [exportMessage, setExportMessage] = useState<Message>(null);
  return (
    <>
      <ChangeEmailCard current={user?.email ?? ''} />
      <Card titleId={`${uid}-password`} title={ACCOUNT_TEXT.passwordTitle}>
        <p className="card__intro">{ACCOUNT_TEXT.passwordIntro}</p>
        <button type="button" className="button button--secondary" onClick={() => void navigate({ search: { tab: 'security' }, replace: true })}>
          Change Password
        </button>
      </Card>
      <Card titleId={`${uid}-export`} title={ACCOUNT_TEXT.exportTitle}>
        <p className="card__intro">{ACCOUNT_TEXT.exportIntro}</p>
        <Callout message={exportMessage} />
        <DownloadButton onDone={setExportMessage} />
      </Card>
      <DeleteAccountCard />
    </>
  );
}
