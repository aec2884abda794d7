import type { ReactNode } from 'react';
import { PricingCards } from '../components/PricingCards.tsx';
import { CtaBand } from '../components/CtaBand.tsx';
import { CalculatorIcon, InvoiceIcon, TaxIcon } from '../../ui/icons.tsx';
import { plans } from '../../site.ts';
import { PageSection } from '../components/PageSection.tsx';

/** The example job on the hero's profit card, line by line. */
const PROFIT_ROWS: readonly { label: string; value: string; className?: string }[] = [
  { label: 'Materials', value: '$860.00' },
  { label: 'Labour (8 h × $47.50)', value: '$380.00' },
  { label: 'Your costs', value: '$1,240.00', className: 'profit-card__subtotal' },
  { label: 'Profit at 25% markup on cost', value: '$310.00', className: 'profit-card__profit' },
  { label: 'That is a margin on the price of', value: '20.0%', className: 'profit-card__note' },
  { label: 'Charge client (excl. GST)', value: '$1,550.00' },
  { label: 'GST (15%)', value: '$232.50' },
  { label: 'Quote total', value: '$1,782.50', className: 'profit-card__total' },
];

/** How It Works: the three tools. */
const TOOLS: readonly { icon: ReactNode; title: string; body: string }[] = [
  {
    icon: <CalculatorIcon />,
    title: 'Profit calculator',
    body: 'List the materials and hours, set your margin (most tradies sit between 20 and 30%) and see the profit and the price to charge — with or without GST. Drop below 15% and it tells you.',
  },
  {
    icon: <InvoiceIcon />,
    title: 'Professional invoicing',
    body: "Quotes and invoices with your logo, GST number and bank details, emailed as a PDF. Turn an accepted quote into an invoice in one tap and see what's Draft, Sent or Paid at a glance.",
  },
  {
    icon: <TaxIcon />,
    title: 'Tax-service compatible',
    body: 'GST worked out to the cent the way the GST Act allows, a GST report for any dates, a summary for the tax year (1 April – 31 March), CSV downloads and one-tap sync to your accounting software.',
  },
];

export default function LandingPage() {
  return (
    <>
      <section className="hero" aria-labelledby="hero-title">
        <div className="container hero__inner">
          <div className="hero__copy">
            <p className="eyebrow">Quoting and invoicing for NZ tradies</p>
            <h1 id="hero-title">Know your real profit before you quote</h1>
            <p className="lead">
              Add up materials and labour on your phone, pick your margin and see exactly what you&apos;ll clear after
              costs and GST. Then send a professional quote or invoice before you&apos;ve left the driveway.
            </p>
            <div className="button-row">
              <a className="button button--accent button--large" href="/signup">
                Start free {plans.trialDays}-day trial
              </a>
              <a className="button button--ghost button--large" href="#how-it-works">
                See how it works
              </a>
            </div>
            <p className="hero__assurance">No credit card needed · NZ GST built in · Then {plans.fullAccessMonthly}/month + GST</p>
          </div>

          <figure className="profit-card" aria-labelledby="profit-card-caption">
            <figcaption id="profit-card-caption" className="profit-card__caption">
              Example job: heat pump install, Hamilton
            </figcaption>
            <dl className="profit-card__rows">
              {PROFIT_ROWS.map((row) => (
                <div key={row.label} className={row.className}>
                  <dt>{row.label}</dt>
                  <dd>{row.value}</dd>
                </div>
              ))}
            </dl>
          </figure>
        </div>
      </section>

      <PageSection id="how-it-works" titleId="how-title">
        <div className="section__head">
          <h2 id="how-title">How It Works</h2>
          <p className="section__intro">
            Three tools that replace the back-of-the-invoice-book maths, the Word template and the spreadsheet you
            fight with at GST time.
          </p>
        </div>
        <div className="card-grid card-grid--3">
          {TOOLS.map((tool) => (
            <article key={tool.title} className="feature-card">
              <span className="feature-card__icon">{tool.icon}</span>
              <h3>{tool.title}</h3>
              <p>{tool.body}</p>
            </article>
          ))}
        </div>
        <p className="section__more">
          <a href="/how-it-works">Walk through a job, step by step</a>
          <a href="/features">See every feature</a>
        </p>
      </PageSection>

      <PageSection tone="sunken" titleId="nz-title">
        <div className="section__head">
          <h2 id="nz-title">Made for the way New Zealand does business</h2>
        </div>
        <ul className="grid-list fact-grid">
          <li>
            <strong>15% GST, to the cent</strong>
            <span>Rounded on the invoice total the way IRD allows, or per line if your business prefers.</span>
          </li>
          <li>
            <strong>NZ dollars and NZ dates</strong>
            <span>$1,234.50 and 23/11/2026 — no American formats on your paperwork.</span>
          </li>
          <li>
            <strong>The NZ tax year</strong>
            <span>Annual summaries run 1 April to 31 March, so they line up with your return.</span>
          </li>
          <li>
            <strong>Records you can keep 7 years</strong>
            <span>Issued invoices are never deleted, only voided, and you can download everything whenever you like.</span>
          </li>
        </ul>
      </PageSection>

      <PageSection titleId="pricing-title">
        <div className="section__head section__head--centre">
          <h2 id="pricing-title">Simple pricing</h2>
          <p className="section__intro">One plan with everything in it. Try it properly first — it&apos;s free for {plans.trialDays} days.</p>
        </div>
        <PricingCards />
        <p className="section__more section__more--centre">
          <a href="/pricing">Pricing details and common questions</a>
        </p>
      </PageSection>

      <CtaBand />
    </>
  );
}
