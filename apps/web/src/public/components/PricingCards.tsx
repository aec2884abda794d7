import { plans } from '../../site.ts';
import { CheckIcon } from '../../ui/icons.tsx';

/** The two plans, shown on the landing page and on /pricing. */
export function PricingCards({ headingLevel = 3 }: { headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <div className="pricing-grid">
      <article className="price-card" aria-labelledby="plan-trial">
        <Heading id="plan-trial" className="price-card__name">
          Free {plans.trialDays}-Day Trial{' '}
          <span className="price-card__price">
            <span className="price-card__amount">$0</span> <span className="price-card__per">for {plans.trialDays} days</span>
          </span>
        </Heading>
        <p className="price-card__summary">Everything included. No credit card needed — just an email address.</p>
        <ul className="check-list">
          <li>
            <CheckIcon /> Every feature, from the calculator to the GST report
          </li>
          <li>
            <CheckIcon /> Send real quotes and invoices to real clients
          </li>
          <li>
            <CheckIcon /> Nothing to cancel: if you don&apos;t subscribe, you&apos;re never charged
          </li>
        </ul>
        <a className="button button--secondary button--block" href="/signup">
          Start free trial
        </a>
      </article>

      <article className="price-card price-card--featured" aria-labelledby="plan-full">
        <p className="badge badge--accent price-card__badge">Best Value</p>
        <Heading id="plan-full" className="price-card__name">
          Full Access{' '}
          <span className="price-card__price">
            <span className="price-card__amount">{plans.fullAccessMonthly}</span>
            <span className="price-card__per">/month</span>
          </span>
        </Heading>
        <p className="price-card__summary">Plus GST. After your trial, billed monthly or annually.</p>
        <ul className="check-list">
          {plans.fullAccessIncludes.map((item) => (
            <li key={item}>
              <CheckIcon /> {item}
            </li>
          ))}
        </ul>
        <a className="button button--accent button--block" href="/signup">
          Try it free for {plans.trialDays} days
        </a>
      </article>
    </div>
  );
}
