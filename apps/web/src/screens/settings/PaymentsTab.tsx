// Payments: clients pay an invoice by card through the tradie's own Stripe account (Stripe's hosted
// onboarding sets it up), and whether the card fee is passed on to them.
import './payments.css';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type KeyboardEvent } from 'react';
import { onlinePaymentSettingsInput, SURCHARGE_MAX_PERCENT, type OnlinePaymentSettings } from '@tradie/contracts';
import { api, errorDetail } from '../../api/client.ts';
import { Card } from '../../ui/Card.tsx';
import { Chip } from '../../ui/Chip.tsx';
import { errorAria, FormField } from '../../ui/FormField.tsx';
import { ErrorAlert, LoadingLine, RetryAlert } from '../../ui/Status.tsx';
import { useCommand } from '../shared/command.ts';
import { connectPayments, paymentSettingsQuery, savePaymentSettings, settingsKeys } from './queries.ts';

export const PAYMENTS_TEXT = {
  unavailable: 'Card payments are not set up on this server.',
  none: 'Not set up',
  onboarding: 'Finishing set-up with Stripe',
  enabled: 'Card payments are on',
  disconnected: 'Your Stripe account was disconnected',
  connect: 'Accept card payments',
  continue: 'Continue set-up',
  saved: 'Payment settings saved',
  linkExpired: 'The Stripe set-up page timed out. Press Continue set-up to carry on.',
} as const;

interface Props {
  /** The screen's banner: a message, and whether it is a failure (its colour follows the word 'Error' in it). */
  onMessage: (text: string, failure: boolean) => void;
  /** Leaves for Stripe's onboarding. */
  goTo?: (url: string) => void;
}

export function PaymentsTab({ onMessage, goTo = (url) => window.location.assign(url) }: Props) {
  const query = useQuery(paymentSettingsQuery(api));
  if (query.isPending) return <LoadingLine>Loading payment settings...</LoadingLine>;
  if (query.isError) return <RetryAlert onRetry={() => void query.refetch()}>{errorDetail(query.error) ?? 'Could not load the payment settings'}</RetryAlert>;
  if (!query.data.available) {
    return (
      <Card titleId="settings-payments-title" title="Card payments">
        <p className="callout" data-testid="payments-unavailable">
          {PAYMENTS_TEXT.unavailable} Your clients pay by bank transfer, with the bank details on the invoice.
        </p>
      </Card>
    );
  }
  return (
    <>
      <ConnectCard settings={query.data} onMessage={onMessage} goTo={goTo} />
      <SurchargeCard key={`${query.data.surcharge_enabled}-${query.data.surcharge_percent}`} settings={query.data} onMessage={onMessage} />
    </>
  );
}

function ConnectCard({ settings, onMessage, goTo }: { settings: OnlinePaymentSettings; onMessage: Props['onMessage']; goTo: (url: string) => void }) {
  const connect = useCommand({
    run: () => connectPayments(api),
    onDone: ({ onboarding_url }) => goTo(onboarding_url),
    onFailed: (_, e) => onMessage(`Error opening Stripe: ${errorDetail(e) ?? 'please try again'}`, true),
  });
  // Leaving for Stripe: the button stays busy until the page goes.
  const busy = connect.pending || connect.done;
  const { status } = settings;
  const label = status === 'onboarding' ? PAYMENTS_TEXT.continue : PAYMENTS_TEXT.connect;
  return (
    <Card titleId="settings-payments-title" title="Card payments">
      <p className="card__intro">Let clients pay an invoice by card from the link you send them. The money goes to your own Stripe account.</p>
      <p className="payments-status" data-testid="payments-status">
        <span className="payments-status__label">Status</span>
        <Chip tone={status === 'enabled' ? 'success' : status === 'onboarding' ? 'warning' : status === 'disconnected' ? 'danger' : 'muted'}>{PAYMENTS_TEXT[status]}</Chip>
      </p>
      {status !== 'enabled' && (
        <button type="button" className="button button--primary button--block" onClick={() => connect.run()} disabled={busy} aria-busy={busy}>
          {busy ? 'Opening Stripe...' : label}
        </button>
      )}
      {status === 'enabled' && <p className="field__hint">Invoices you send now have a Pay now button for your clients.</p>}
    </Card>
  );
}

function SurchargeCard({ settings, onMessage }: { settings: OnlinePaymentSettings; onMessage: Props['onMessage'] }) {
  const queryClient = useQueryClient();
  const [enabled, setEnabled] = useState(settings.surcharge_enabled);
  const [percent, setPercent] = useState(String(settings.surcharge_percent));
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setError(null), [enabled, percent]);

  const save = useCommand({
    run: (body: { surcharge_enabled: boolean; surcharge_percent: number }) => savePaymentSettings(api, body),
    onDone: (saved) => {
      queryClient.setQueryData(settingsKeys.payments, saved);
      onMessage(PAYMENTS_TEXT.saved, false);
    },
    onFailed: (_, e) => onMessage(`Error saving the card fee: ${errorDetail(e) ?? 'please try again'}`, true),
  });

  const submit = () => {
    if (save.pending) return;
    const typed = percent.trim() === '' ? 0 : Number(percent);
    const parsed = onlinePaymentSettingsInput.safeParse({ surcharge_enabled: enabled, surcharge_percent: Number.isFinite(typed) ? typed : Number.NaN });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? `Type a percentage from 0 to ${SURCHARGE_MAX_PERCENT}`);
      return;
    }
    save.run(parsed.data);
  };
  // The tab sits inside the Settings form: Enter here saves these settings, not the business's.
  const onEnter = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter') return;
    e.preventDefault();
    submit();
  };

  return (
    <Card titleId="settings-surcharge-title" title="Card fee">
      <label className="switch">
        <input type="checkbox" role="switch" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} onKeyDown={onEnter} />
        <span className="switch__track" aria-hidden="true" />
        <span className="switch__label">Pass the card fee on to my clients</span>
      </label>
      {enabled && (
        <FormField id="settings-surcharge-percent" label="Card fee (%)" hint={`From 0 to ${SURCHARGE_MAX_PERCENT}%, no more than Stripe charges you for a card.`}>
          {(describedBy) => (
            <input
              id="settings-surcharge-percent"
              className="input input--short input--number"
              type="text"
              inputMode="decimal"
              value={percent}
              onChange={(e) => setPercent(e.target.value)}
              onKeyDown={onEnter}
              {...errorAria(describedBy, error, 'settings-surcharge-error')}
            />
          )}
        </FormField>
      )}
      <ErrorAlert id="settings-surcharge-error" message={error} />
      <p className="payments-disclosure">
        Off: Stripe&rsquo;s fee comes out of what the client pays you. On: your client sees the fee and the total on the invoice page before they pay.
        A surcharge must never be more than what the card costs you.
      </p>
      <button type="button" className="button button--secondary" onClick={submit} disabled={save.pending} aria-busy={save.pending}>
        {save.pending ? 'Saving...' : 'Save card fee'}
      </button>
    </Card>
  );
}
