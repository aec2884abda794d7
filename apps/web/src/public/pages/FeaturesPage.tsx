import type { ReactNode } from 'react';
import { CtaBand } from '../components/CtaBand.tsx';
import {
  BrushIcon,
  CalculatorIcon,
  ClientsIcon,
  ClockIcon,
  InvoiceIcon,
  PaidIcon,
  PhoneIcon,
  ReportIcon,
  SyncIcon,
  TemplateIcon,
} from '../../ui/icons.tsx';
import { PageHero, PageSection } from '../components/PageSection.tsx';
import { DotList } from '../components/DotList.tsx';

interface Feature {
  id: string;
  icon: ReactNode;
  title: string;
  intro: string;
  points: readonly string[];
  /** Marketing copy marks these as Full Access ('Pro') features; the trial includes them too. */
  fullAccess?: boolean;
}

const features: readonly Feature[] = [
  {
    id: 'calculator',
    icon: <CalculatorIcon />,
    title: 'Quote & profit calculator',
    intro: 'Price the job before you commit to a number, and know what you will actually clear.',
    points: [
      'Add as many lines as the job needs: quantity, description and unit price, to the cent',
      'Set your margin from 0 to 100% (25% to start; most trades sit at 20–30%)',
      'See your costs, your profit and the amount to charge the client side by side',
      'A warning when the margin drops under 15%, before you undersell yourself',
      'Apply the margin to every line price in one tap',
      'Switch GST (15%) on or off per document, for GST-registered or not',
    ],
  },
  {
    id: 'documents',
    icon: <InvoiceIcon />,
    title: 'Quotes and invoices',
    intro: 'Tidy, consistent paperwork that gets paid — created and sent from your phone.',
    points: [
      'Quotes and invoices numbered in order (QTE-0001, INV-0001), never reused',
      'A PDF of every quote and invoice, ready to email to the client',
      'Your default email subject, message, CC and BCC filled in for you',
      'Convert an accepted quote into an invoice without retyping a thing',
      'Status tracking at a glance: Draft, Sent, Paid — and overdue when money is owing',
    ],
  },
  {
    id: 'payments',
    icon: <PaidIcon />,
    title: 'Payments',
    intro: 'Know who has paid and who still owes you.',
    points: [
      'Mark an invoice as Paid in one tap',
      'See the payment history of every invoice',
      'Part-paid invoices show as Partial until the balance is in',
    ],
  },
  {
    id: 'clients',
    icon: <ClientsIcon />,
    title: 'Clients',
    intro: 'Your client list in your pocket, for homeowners and businesses alike.',
    points: [
      'Individuals and businesses, with contact and billing details',
      'Typeahead search: start typing a name and pick the client',
      'Each client’s invoice history in one place',
      'Payment terms per client: due on receipt, 7, 14, 30 or 60 days',
      'Quick-add a new client without leaving the quote',
    ],
  },
  {
    id: 'templates',
    icon: <TemplateIcon />,
    title: 'Templates',
    intro: 'Do the same kinds of jobs? Price them once.',
    points: [
      'Save a common quote or invoice as a template',
      'Start the next job from it and adjust what is different',
      'Templates are kept on your device, not on our servers',
    ],
    fullAccess: true,
  },
  {
    id: 'branding',
    icon: <BrushIcon />,
    title: 'Your brand on every document',
    intro: 'Look like the established business you are.',
    points: [
      'Custom logo branding: upload a PNG, JPG or SVG up to 2 MB',
      'Business name, address, GST number and NZBN on your documents',
      'Your bank account details on invoices so clients can pay straight away',
      'Adjustable payment terms for your business and per client',
    ],
    fullAccess: true,
  },
  {
    id: 'accounting',
    icon: <SyncIcon />,
    title: 'One-tap accounting sync',
    intro: 'No double entry between your invoices and your books.',
    points: [
      'Connect your Xero organisation once from Settings',
      'Sync an invoice with one tap; synced invoices are marked so you never send one twice',
      'Check the connection any time, and disconnect whenever you like',
    ],
    fullAccess: true,
  },
  {
    id: 'reports',
    icon: <ReportIcon />,
    title: 'GST and tax reports',
    intro: 'GST time without the shoebox.',
    points: [
      'A GST report for any date range — quarter buttons for Jan–Mar, Apr–Jun, Jul–Sep and Oct–Dec',
      'An annual summary for the NZ tax year (1 April – 31 March), with your top 10 clients by revenue',
      'Download either as CSV for your accountant',
      'Export to a sole-trader tax service',
    ],
    fullAccess: true,
  },
  {
    id: 'mobile',
    icon: <PhoneIcon />,
    title: 'Built for the phone in your pocket',
    intro: 'Designed for a phone on-site first, and just as good on a laptop at night.',
    points: [
      'Big buttons and a number keypad for quantities and prices',
      'Add it to your home screen like an app — no app store needed',
      'Pages load fast on a weak signal, and the app still opens with no signal at all',
    ],
  },
];

export default function FeaturesPage() {
  return (
    <>
      <PageHero>
        <p className="eyebrow">Features</p>
        <h1>Everything between the first phone call and the money in the bank</h1>
        <p className="lead">
          Price the job, quote it, invoice it, get paid and hand your accountant clean numbers — all in one place,
          all on your phone.
        </p>
      </PageHero>

      <PageSection tone="tight" label="Feature list">
        <div className="card-grid card-grid--2">
          {features.map((feature) => (
            <article key={feature.id} id={feature.id} className="feature-card feature-card--detailed">
              <div className="feature-card__top">
                <span className="feature-card__icon">{feature.icon}</span>
                {feature.fullAccess ? <span className="badge badge--brand">Full Access</span> : null}
              </div>
              <h2 className="feature-card__title">{feature.title}</h2>
              <p>{feature.intro}</p>
              <DotList points={feature.points} />
            </article>
          ))}

          <article id="timesheets" className="feature-card feature-card--detailed feature-card--soon">
            <div className="feature-card__top">
              <span className="feature-card__icon">
                <ClockIcon />
              </span>
              <span className="badge badge--soon">Coming Soon</span>
            </div>
            <h2 className="feature-card__title">Timesheets</h2>
            <p>Log the hours you and your crew put in on each job, right from the site.</p>
            <DotList
              points={['Start and stop a timer, or enter hours after the day is done', 'Pull logged hours straight into an invoice as labour lines', 'Planned as an add-on for +$3/month']}
            />
          </article>
        </div>
        <p className="fine-print">
          Features marked Full Access are part of the paid plan. Your free trial includes every one of them.
        </p>
      </PageSection>

      <CtaBand title="See it on your next job" />
    </>
  );
}
