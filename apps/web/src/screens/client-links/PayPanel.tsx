// 'Pay now': the amount to pay by card (with the card fee, when the business passes it on, shown
// before paying), then Stripe Checkout.
import type { PublicInvoicePage } from '@tradie/contracts';
import { Card } from '../../ui/Card.tsx';
import { ErrorAlert } from '../../ui/Status.tsx';
import { useCommand } from '../shared/command.ts';
import { businessName, linkGone } from './parts.tsx';
import { startCheckout, type PublicApi } from './queries.ts';

interface Props {
  api: PublicApi;
  token: string;
  page: PublicInvoicePage;
  goTo: (url: string) => void;
  /** The link stopped working while the page was open (404/410: withdrawn, the business closed): the page says why, full page. */
  onGone: () => void;
}

export function PayPanel({ api, token, page, goTo, onGone }: Props) {
  const surcharge = page.pay?.surcharge ?? null;
  const pay = useCommand({
    run: () => startCheckout(api, token),
    failed: 'Could not start the card payment. Please try again.',
    // Off to Stripe's page: the button stays busy while the browser leaves.
    onDone: ({ checkout_url }) => {
      goTo(checkout_url);
      return new Promise<never>(() => undefined);
    },
    onFailed: (_message, e) => {
      if (linkGone(e)) onGone();
    },
  });
  const { pending, error } = pay;

  return (
    <Card titleId="client-pay-title" title="Pay by card" className="client-card client-pay">
      <dl className="figures client-figures">
        <div className="figures__row">
          <dt>Balance</dt>
          <dd>{page.document.formatted.balance}</dd>
        </div>
        {surcharge && (
          <>
            <div className="figures__row">
              <dt>Card fee ({surcharge.percent}%)</dt>
              <dd data-testid="client-surcharge">{surcharge.formatted}</dd>
            </div>
            <div className="figures__row figures__row--total">
              <dt>Total to pay by card</dt>
              <dd data-testid="client-pay-total">{surcharge.total_formatted}</dd>
            </div>
          </>
        )}
      </dl>
      {surcharge && <p className="field__hint">{businessName(page.business, true)} passes on the card fee of {surcharge.percent}%: you see the full amount before you pay.</p>}
      <ErrorAlert message={error} />
      <button type="button" className="button button--accent button--large button--block" onClick={() => pay.run()} disabled={pending} aria-busy={pending}>
        {pending ? 'Opening secure payment...' : `Pay now ${surcharge ? surcharge.total_formatted : page.document.formatted.balance}`}
      </button>
      <p className="fine-print client-pay__note">You pay on Stripe&rsquo;s secure page; your card details never reach {businessName(page.business)}.</p>
    </Card>
  );
}
