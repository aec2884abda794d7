import { plans } from '../../site.ts';

/** The closing call to action on marketing pages. */
export function CtaBand({ title = 'Stop guessing your margin' }: { title?: string }) {
  return (
    <section className="cta-band on-dark" aria-labelledby="cta-title">
      <div className="container cta-band__inner">
        <h2 id="cta-title">{title}</h2>
        <p>
          Try every feature free for {plans.trialDays} days. No credit card, no lock-in — then {plans.fullAccessMonthly} a
          month plus GST if it earns its keep.
        </p>
        <a className="button button--accent button--large" href="/signup">
          Start your free trial
        </a>
      </div>
    </section>
  );
}
