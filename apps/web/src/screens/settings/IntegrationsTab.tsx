// Integrations: the Xero card, driven by the connect machine (machines/xeroConnect.ts).
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { ACCOUNTING_MESSAGES } from '@tradie/contracts';
import { XERO_TEXT, type XeroConnectMachine } from '../../machines/xeroConnect.ts';
import { CheckList } from '../../ui/CheckList.tsx';
import { XeroBillAccounts } from './XeroBillAccounts.tsx';

export const XERO_FEATURES = [
  'Send an invoice to Xero with one tap',
  'Your client becomes a Xero contact automatically',
  'Lines coded with 15% GST on income, ready for your GST return',
  'Payments you record here are added in Xero too',
] as const;

/** Xero's mark (a simple stand-in: their blue circle with the name). */
function XeroMark() {
  return (
    <span className="icon-tile xero-mark" aria-hidden="true">
      xero
    </span>
  );
}

/** `show`: the Settings screen's banner (the bill accounts' saves speak through it). */
export function IntegrationsTab({ actor, show }: { actor: ActorRefFrom<XeroConnectMachine>; show: (text: string, failure: boolean) => void }) {
  const snapshot = useSelector(actor, (s) => s);
  const { status } = snapshot.context;
  const loading = snapshot.matches('loading');
  const connecting = snapshot.matches('connecting');
  const waitingForWindow = snapshot.matches({ connecting: 'waiting' });
  const disconnecting = snapshot.matches('disconnecting');
  const testing = snapshot.matches('testing');
  const busy = !snapshot.matches('idle');
  const notConfigured = status?.configured === false;
  const connected = status?.connected === true;

  const disconnect = () => {
    if (window.confirm(XERO_TEXT.disconnectConfirm)) actor.send({ type: 'DISCONNECT' });
  };

  return (
    <article className="card integration-card" aria-labelledby="xero-title" aria-busy={busy}>
      <header className="integration-card__head">
        <XeroMark />
        <div className="integration-card__name">
          <h2 id="xero-title" className="card__title">
            Xero
          </h2>
          <p className="integration-card__kind">Accounting</p>
        </div>
        {connected && <span className="chip chip--success integration-card__badge">Connected</span>}
      </header>
      <p>Keep your books up to date without typing anything twice: send your invoices straight to Xero, where your accountant and your GST return can use them.</p>
      <CheckList items={XERO_FEATURES} className="integration-card__features" />

      {loading && (
        <p className="integration-card__status" role="status">
          Checking your Xero connection...
        </p>
      )}

      {!loading && notConfigured && <p className="callout callout--warning integration-card__note">{ACCOUNTING_MESSAGES.notConfigured}</p>}

      {!loading && !notConfigured && connected && (
        <>
          <p className="integration-card__status">
            Connected to <strong>{status.tenant_name || 'your Xero organisation'}</strong>
          </p>
          <div className="integration-card__actions">
            <button type="button" className="button button--secondary" onClick={() => actor.send({ type: 'TEST' })} disabled={busy} aria-busy={testing}>
              Test Connection
            </button>
            <button type="button" className="button button--danger integration-card__disconnect" onClick={disconnect} disabled={busy} aria-busy={disconnecting}>
              Disconnect
            </button>
          </div>
          <XeroBillAccounts show={show} />
        </>
      )}

      {!loading && !notConfigured && !connected && (
        <>
          {status?.needs_reauth && <p className="callout callout--warning integration-card__note">Xero needs you to connect again before invoices can be synced.</p>}
          <div className="integration-card__actions">
            <button type="button" className="button button--primary" onClick={() => actor.send({ type: 'CONNECT' })} disabled={busy} aria-busy={connecting}>
              {connecting ? 'Connecting...' : 'Connect'}
            </button>
          </div>
          {waitingForWindow && (
            <p className="integration-card__status" role="status">
              Finish signing in to Xero in the window that opened. This page carries on when it closes.
            </p>
          )}
        </>
      )}
    </article>
  );
}
