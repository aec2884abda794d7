// Account: change the email address (POST /account/change-email: a link goes to the new address,
// which takes over only when it is opened), a way to the password (it is changed in the Security
// tab), Download my data (GET /account/export/zip: a ZIP of the documents as PDFs, the accountant's
// CSVs and the complete JSON export for a restore) and Delete my
// account (the data offered first, then the typed word and the password; POST /account/delete,
// then this browser signs out and a goodbye screen is shown).
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { ACCOUNT_MESSAGES, ACCOUNT_PURGE_DAYS, changeEmailInput, type ChangeEmailInput, DELETE_CONFIRMATION_WORD, type DeleteAccountInput } from '@tradie/contracts';
import { type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { api, clearTokens } from '../../api/client.ts';
import { useAuth, useSessionUser } from '../../app/useAuth.ts';
import { Card } from '../../ui/Card.tsx';
import { useCommand } from '../shared/command.ts';
import { changeEmail, deleteAccount, exportAccount } from './queries.ts';

export const ACCOUNT_TEXT = {
  emailTitle: 'Email address',
  emailIntro: 'We send a link to the new address. Your email changes when you open it; until then you keep signing in with the current one.',
  emailFailed: 'Your email address could not be changed. Please try again.',
  passwordTitle: 'Password',
  passwordIntro: 'Change your password, see recent sign-ins and sign out everywhere in the Security tab.',
  exportTitle: 'Download my data',
  exportIntro:
    'One ZIP file you can open: every quote, invoice and credit note as a PDF, your invoices, payments and clients as spreadsheets (the same as your accountant gets), ' +
    'and a complete copy of your account that it can be brought back from. Keep it with your business records — New Zealand asks businesses to keep their records for 7 years.',
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
  const change = useCommand({
    run: (body: ChangeEmailInput) => changeEmail(api, body),
    failed: ACCOUNT_TEXT.emailFailed,
    onDone: () => {
      setEmail('');
      setPassword('');
    },
  });
  const busy = change.pending;
  // Only saved to the server's outbox: a warning, as nobody got the link.
  const message: Message = change.error
    ? { kind: 'error', text: change.error }
    : change.result
      ? { kind: change.result.outcome === 'delivered' ? 'success' : 'warning', text: change.result.detail }
      : null;
  const submit = change.submit(() => {
    const parsed = changeEmailInput.safeParse({ new_email: email, password });
    return parsed.success ? { ok: true, body: parsed.data } : { ok: false, error: parsed.error.issues[0]?.message ?? ACCOUNT_TEXT.emailFailed };
  });

  return (
    <Card titleId={`${uid}-title`} title={ACCOUNT_TEXT.emailTitle}>
      <p className="card__intro">{ACCOUNT_TEXT.emailIntro}</p>
      <div className="form-grid" onKeyDown={onEnter(() => submit())}>
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
      <button type="button" className="button button--primary" onClick={() => submit()} disabled={busy} aria-busy={busy}>
        {busy ? 'Sending link...' : 'Change Email'}
      </button>
    </Card>
  );
}

/** The ZIP as a file download: fetched with the session, saved under the name the server gives it. */
async function downloadMyData(): Promise<void> {
  const blob = await exportAccount(api);
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = `tradie-my-data-${new Date().toISOString().slice(0, 10)}.zip`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function DownloadButton({ onDone, label = 'Download My Data' }: { onDone: (m: Message) => void; label?: string }) {
  const download = useCommand({
    run: downloadMyData,
    failed: ACCOUNT_TEXT.exportFailed,
    onDone: () => onDone({ kind: 'success', text: ACCOUNT_TEXT.exportDone }),
    onFailed: (text) => onDone({ kind: 'error', text }),
  });
  const busy = download.pending;
  return (
    <button type="button" className="button button--secondary" onClick={() => download.run()} disabled={busy} aria-busy={busy}>
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
  const [message, setMessage] = useState<Message>(null);
  const [gone, setGone] = useState(false);
  const remove = useCommand({
    run: (body: DeleteAccountInput) => deleteAccount(api, body),
    failed: ACCOUNT_TEXT.deleteFailed,
    onDone: async () => {
      // Every session already ended on the server; this browser forgets its tokens and the account's data.
      try {
        await auth.logout();
      } catch (e) {
        console.error('Signing out after deleting the account', e);
      }
      clearTokens(globalThis.localStorage);
      queryClient.clear();
      setGone(true);
    },
    onFailed: (text) => setMessage({ kind: 'error', text }),
  });
  const busy = remove.pending;
  const ready = word.trim() === DELETE_CONFIRMATION_WORD && password !== '';

  const submit = () => {
    if (word.trim() !== DELETE_CONFIRMATION_WORD) {
      setMessage({ kind: 'error', text: ACCOUNT_MESSAGES.confirmationWrong });
      return;
    }
    if (password === '') {
      setMessage({ kind: 'error', text: ACCOUNT_MESSAGES.passwordRequired });
      return;
    }
    setMessage(null);
    remove.run({ confirm: word.trim(), password });
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
        <div className="form-grid" onKeyDown={onEnter(submit)}>
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
            <button type="button" className="button button--danger" onClick={submit} disabled={busy || !ready} aria-busy={busy}>
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
