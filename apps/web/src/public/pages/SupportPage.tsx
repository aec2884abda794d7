import { Faq, type FaqItem } from '../components/Faq.tsx';
import { commitments as c, site } from '../../site.ts';
import { PageHero } from '../components/PageSection.tsx';

const howTo: readonly FaqItem[] = [
  {
    q: 'I forgot my password',
    a: (
      <p>
        Go to <a href="/forgot-password">Forgot password</a>, enter the email you signed up with and tap Send Reset
        Link. If an account exists for that email, a reset link arrives shortly. Open it, choose a new password of at
        least 8 characters, and sign in. Check your spam folder if it hasn&apos;t arrived after a few minutes.
      </p>
    ),
  },
  {
    q: 'Add the app to my phone’s home screen',
    a: (
      <>
        <p>
          <strong>iPhone (Safari):</strong> open {site.name}, tap the Share button, then &lsquo;Add to Home
          Screen&rsquo;.
        </p>
        <p>
          <strong>Android (Chrome):</strong> open {site.name}, tap the ⋮ menu, then &lsquo;Add to Home screen&rsquo; or
          &lsquo;Install app&rsquo;.
        </p>
        <p>It then opens full-screen like any other app, and still opens when you have no signal.</p>
      </>
    ),
  },
  {
    q: 'Put my logo and bank details on invoices',
    a: (
      <p>
        In the app, go to Settings → Business &amp; Logo. Upload your logo (PNG, JPG or SVG, up to 2 MB), fill in your
        business details and GST number, and add your bank account (NZ format XX-XXXX-XXXXXXX-XXX). Tap Save Settings;
        new PDFs use them straight away.
      </p>
    ),
  },
  {
    q: 'Connect Xero',
    a: (
      <p>
        Go to Settings → Integrations and tap Connect. A Xero window opens: sign in and allow access, then close it.
        Back in the app, the card shows Connected. Sync an invoice from the Invoices list with its sync button; synced
        invoices are marked so they aren&apos;t sent twice. Disconnect from the same card at any time.
      </p>
    ),
  },
  {
    q: 'Run my GST report',
    a: (
      <p>
        Open Reports, pick a quarter (or the NZ tax year, or your own start and end dates) and tap Generate Report. The
        report shows total sales including GST, GST collected and a monthly breakdown. Tap Download CSV to send it to
        your accountant. It covers the GST on invoices you issued; expenses aren&apos;t included.
      </p>
    ),
  },
  {
    q: 'Subscribe, change my card or cancel',
    a: (
      <p>
        Go to Settings → Billing &amp; Trial. During the trial, tap Subscribe. Once subscribed, Manage Subscription
        opens the billing portal, where you can update your card or cancel. Cancelling stops future payments.
      </p>
    ),
  },
  {
    q: 'The app says I’m offline',
    a: (
      <p>
        Your phone has no connection, so you&apos;re seeing the copy of the app saved on your phone. You can look
        around, but saving, sending and syncing need a connection — try again when you have signal. Nothing you saved
        before is lost.
      </p>
    ),
  },
];

export default function SupportPage() {
  const mail = `mailto:${site.supportEmail}`;
  return (
    <>
      <PageHero prose>
        <p className="eyebrow">Support</p>
        <h1>How can we help?</h1>
        <p className="lead">
          Answers to the common questions are below. If you&apos;re stuck, email us — a real person who knows the app
          will reply.
        </p>
      </PageHero>

      <div className="container container--prose section section--tight">
        <section className="contact-card" aria-labelledby="s-contact">
          <h2 id="s-contact">Contact support</h2>
          <p>
            Email{' '}
            <a className="contact-card__email" href={mail}>
              {site.supportEmail}
            </a>
          </p>
          <p>
            We aim to reply within one working day. Full Access subscribers get priority support: your
            messages go to the front of the queue.
          </p>
          <p className="contact-card__tip">
            To help us sort it quickly, tell us the email on your account, what you were trying to do, and the
            reference of the quote or invoice (e.g. INV-0042) if it&apos;s about one. A screenshot helps too. Never
            send us your password.
          </p>
        </section>

        <section aria-labelledby="s-howto">
          <h2 id="s-howto">How do I…</h2>
          <Faq items={howTo} />
        </section>

        <section id="export" aria-labelledby="s-export" className="prose">
          <h2 id="s-export">Your data and how to export it</h2>
          <p>
            <strong>What we keep:</strong> your account (name, email, a hash of your password), your business settings
            and logo, your clients, and your quotes, invoices and payments. Saved templates stay on your own device.
          </p>
          <p>
            <strong>Exporting:</strong> from Reports you can download the GST report and the annual summary as CSV
            files at any time — the same figures your accountant needs. For a complete copy of everything in your account
            (clients, quotes, invoices, line items and payments), email us from your account&apos;s address and we&apos;ll
            send it to you. That works for {c.exportDaysAfterTermination} days after your account ends, too.
          </p>
          <p>
            <strong>Deleting:</strong> delete your account in Settings → Account and everything in it is deleted within{' '}
            {c.deleteDaysAfterAccountDeletion} days. New Zealand tax rules require you to keep your business records for{' '}
            {c.invoiceRetentionYears} years, so download them first (Settings → Account → Download my data).
          </p>
          <p>
            <strong>Privacy requests</strong> — to see or correct what we hold about you — are answered within{' '}
            {c.privacyResponseWorkingDays} working days. More in our <a href="/privacy">privacy policy</a>.
          </p>
        </section>

        <section aria-labelledby="s-more" className="prose">
          <h2 id="s-more">More reading</h2>
          <ul>
            <li>
              <a href="/how-it-works">How it works</a> — quote on-site, send the invoice, get paid and sync.
            </li>
            <li>
              <a href="/pricing">Pricing and billing questions</a>
            </li>
            <li>
              <a href="/terms">Terms of service</a> and <a href="/privacy">privacy policy</a>
            </li>
          </ul>
        </section>
      </div>
    </>
  );
}
