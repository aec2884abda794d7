import { PricingCards } from '../components/PricingCards.tsx';
import { Faq, type FaqItem } from '../components/Faq.tsx';
import { CtaBand } from '../components/CtaBand.tsx';
import type { ReactNode } from 'react';
import { ClientsIcon, ClockIcon, SendIcon } from '../../ui/icons.tsx';

const addOnIcons: Record<string, ReactNode> = {
  Timesheets: <ClockIcon />,
  'SMS payment reminders': <SendIcon />,
  'Team accounts': <ClientsIcon />,
};
import { commitments, plans, site } from '../../site.ts';
import { PageHero, PageSection } from '../components/PageSection.tsx';

const faq: readonly FaqItem[] = [
  {
    q: 'Do I need a credit card to start the trial?',
    a: (
      <p>
        No. Sign up with your name, email and a password and you have {plans.trialDays} days of Full Access straight
        away. We only ask for payment details if you decide to subscribe.
      </p>
    ),
  },
  {
    q: 'What happens when my trial ends?',
    a: (
      <p>
        The app tells you your free trial has ended and asks you to subscribe to keep using it. Your clients, quotes
        and invoices are kept, so when you subscribe everything is where you left it. If you don&apos;t subscribe,
        you&apos;re never charged.
      </p>
    ),
  },
  {
    q: 'Is GST included in the price?',
    a: (
      <p>
        No — like most business software, our fees exclude GST. Full Access is {plans.fullAccessMonthly} a month plus
        15% GST. If you&apos;re GST-registered you can claim that GST back.
      </p>
    ),
  },
  {
    q: 'Can I pay annually instead of monthly?',
    a: <p>Yes. Fees are billed monthly or annually — choose when you subscribe.</p>,
  },
  {
    q: 'Can I get a refund?',
    a: (
      <>
        <p>
          You don&apos;t pay anything during the {plans.trialDays}-day trial and there&apos;s no card on file, so you can
          try every feature on real jobs before spending a cent.
        </p>
        <p>
          Once you subscribe, fees are non-refundable except where the law requires a refund. You can cancel at any
          time, which stops future payments. The full wording is in our <a href="/terms#fees">terms of service</a>.
        </p>
      </>
    ),
  },
  {
    q: 'How do I cancel?',
    a: (
      <p>
        In the app, go to Settings → Billing &amp; Trial and choose Manage Subscription. You can cancel there or update your
        card. Cancelling stops future payments.
      </p>
    ),
  },
  {
    q: 'Will the price go up?',
    a: (
      <p>
        If we ever change our fees, we tell you at least {commitments.noticeDays} days before the change applies to
        you, so you have time to decide.
      </p>
    ),
  },
  {
    q: 'Can I get my data out if I leave?',
    a: (
      <p>
        Yes, it&apos;s your data. You can download your GST report and annual summary as CSV at any time, and you can
        ask for a full export up to {commitments.exportDaysAfterTermination} days after your account ends. See{' '}
        <a href="/support#export">exporting your data</a>.
      </p>
    ),
  },
  {
    q: 'Is there a limit on invoices, quotes or clients?',
    a: <p>No. Full Access includes unlimited invoices, quotes and clients.</p>,
  },
  {
    q: 'When will the add-ons be available?',
    a: (
      <p>
        Timesheets, SMS payment reminders and team accounts are being built now. They&apos;ll be optional extras on
        top of Full Access — the plan itself won&apos;t change. Email {site.supportEmail} if one of them would make a
        difference to you; it helps us decide what comes first.
      </p>
    ),
  },
];

export default function PricingPage() {
  return (
    <>
      <PageHero>
        <p className="eyebrow">Pricing</p>
        <h1>One plan. Everything in it.</h1>
        <p className="lead">
          Try it free for {plans.trialDays} days with no credit card. Then Full Access is {plans.fullAccessMonthly} a
          month — less than a coffee a fortnight for knowing what every job really makes you.
        </p>
      </PageHero>

      <PageSection tone="tight" label="Plans">
        <PricingCards headingLevel={2} />
        <p className="fine-print fine-print--center">{plans.feesNote}</p>
      </PageSection>

      <PageSection tone="sunken" titleId="addons-title">
        <div className="section__head">
          <h2 id="addons-title">Coming Soon: Add-ons</h2>
          <p className="section__intro">Optional extras for Full Access, for when you need them.</p>
        </div>
        <ul className="addon-list">
          {plans.addOns.map((addOn) => (
            <li key={addOn.name} className="addon">
              <span className="addon__icon">{addOnIcons[addOn.name]}</span>
              <span className="addon__body">
                <strong className="addon__name">{addOn.name}</strong>
                <span className="addon__detail">{addOn.detail}</span>
              </span>
              <span className="addon__price">{addOn.price}</span>
            </li>
          ))}
        </ul>
        <p className="fine-print">Add-on prices exclude GST. They&apos;re not available to buy yet.</p>
      </PageSection>

      <PageSection titleId="faq-title" prose>
        <h2 id="faq-title">Frequently asked questions</h2>
        <Faq items={faq} />
        <p>
          Something else? <a href="/support">Visit support</a> or email <a href={`mailto:${site.supportEmail}`}>{site.supportEmail}</a>.
        </p>
      </PageSection>

      <CtaBand title="Try it on your next job" />
    </>
  );
}
