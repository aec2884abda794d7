import { Faq, type FaqItem } from '../components/Faq.tsx';
import { CtaBand } from '../components/CtaBand.tsx';
import { PlayIcon } from '../../ui/icons.tsx';
import { plans } from '../../site.ts';
import { PageHero, PageSection } from '../components/PageSection.tsx';
import { DotList } from '../components/DotList.tsx';

const steps = [
  {
    title: 'Quote on-site',
    body: 'Standing in the client’s kitchen? Open the calculator, add the materials and your hours, and set your margin. You see your costs, your profit and the price to charge — with GST or without — before you say a number out loud.',
    points: [
      'Pick the client or add a new one in seconds',
      'Apply your margin to every line price in one tap',
      'Save jobs you price often as templates',
    ],
  },
  {
    title: 'Send invoice',
    body: 'Send the quote as a PDF by email while you’re still there. When the client says yes, turn the quote into an invoice in one tap — no retyping — with your logo, GST number and bank details on it.',
    points: [
      'Numbered in order: QTE-0001, INV-0001',
      'Your default subject and message, with CC and BCC if you want a copy',
      'Draft, Sent and Paid shown on every invoice',
    ],
  },
  {
    title: 'Get paid & sync',
    body: 'When the money lands, mark the invoice as Paid. Sync it to your accounting software in one tap, and at GST time run the report for the period and download it as CSV for your accountant.',
    points: [
      'Payment history on every invoice',
      'GST report for any dates, annual summary for the tax year',
      'One-tap sync to Xero',
    ],
  },
] as const;

const questions: readonly FaqItem[] = [
  {
    q: 'Do I have to be GST-registered?',
    a: (
      <p>
        No. Each quote and invoice has an &lsquo;Include GST (15%)&rsquo; switch. Leave it on if you&apos;re registered
        and GST is added and shown on the document; turn it off if you&apos;re not registered and the document
        won&apos;t charge GST.
      </p>
    ),
  },
  {
    q: 'How is GST worked out?',
    a: (
      <p>
        At 15% of the subtotal, rounded to the cent the way the GST Act allows (half a cent or less is dropped, more
        than half a cent rounds up). By default it&apos;s rounded once on the invoice total; you can choose per-line
        rounding in your settings.
      </p>
    ),
  },
  {
    q: 'How is the margin worked out?',
    a: (
      <p>
        By default the calculator takes your costs (the subtotal of your lines) and adds your percentage of them as
        profit — a markup on cost: at 25%, $1,000 of costs becomes $250 profit and a $1,250 price to the client, before
        GST. That is a 20% margin on the price, and the calculator says so beside the figures. If you think in margin
        on the price (25% of the price is profit), switch it to &lsquo;Margin on price&rsquo;: $1,000 of costs then becomes
        a $1,333.33 price.
      </p>
    ),
  },
  {
    q: 'Can I use it without signal?',
    a: (
      <p>
        The app opens on your phone with no signal and tells you it&apos;s offline. Saving, sending and syncing need a
        connection, so do those once you&apos;re back in coverage — a weak signal is enough, the pages are built to be
        light.
      </p>
    ),
  },
  {
    q: 'Do my clients need an account?',
    a: <p>No. They get your quote or invoice as a PDF attached to an email, and pay you as they normally would.</p>,
  },
  {
    q: 'Which tax year does the annual summary use?',
    a: (
      <p>
        The New Zealand tax year, 1 April to 31 March. Choose the year and the summary shows your revenue, GST, paid
        and unpaid amounts, a monthly breakdown and your top 10 clients.
      </p>
    ),
  },
];

export default function HowItWorksPage() {
  return (
    <>
      <PageHero>
        <p className="eyebrow">How it works</p>
        <h1>From the driveway to the bank in three steps</h1>
        <p className="lead">
          No training, no setup day. If you can send a text, you can quote, invoice and get paid with {' '}
          Tradie Quotes.
        </p>
      </PageHero>

      <PageSection tone="tight" label="The three steps">
        <ol className="steps">
          {steps.map((step, index) => (
            <li key={step.title} className="step">
              <span className="step__number" aria-hidden="true">
                {index + 1}
              </span>
              <div className="step__body">
                <h2 className="step__title">
                  <span className="visually-hidden">Step {index + 1}: </span>
                  {step.title}
                </h2>
                <p>{step.body}</p>
                <DotList points={step.points} />
              </div>
            </li>
          ))}
        </ol>
      </PageSection>

      <PageSection tone="sunken" titleId="video-title" prose>
        <h2 id="video-title">See it in action</h2>
        <div className="video-placeholder" role="img" aria-label="Video demo coming soon">
          <PlayIcon />
          <p>Video demo coming soon</p>
        </div>
        <p className="fine-print">
          In the meantime, the quickest way to see it is to try it: the {plans.trialDays}-day trial is free and needs
          no credit card.
        </p>
      </PageSection>

      <PageSection titleId="questions-title" prose>
        <h2 id="questions-title">Common Questions</h2>
        <Faq items={questions} />
      </PageSection>

      <CtaBand title="Price your next job properly" />
    </>
  );
}
