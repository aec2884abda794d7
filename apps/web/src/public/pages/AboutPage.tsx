import { CtaBand } from '../components/CtaBand.tsx';
import { commitments as c, site } from '../../site.ts';
import { PageHero } from '../components/PageSection.tsx';

export default function AboutPage() {
  return (
    <>
      <PageHero prose>
        <p className="eyebrow">About</p>
        <h1>Built for the people who build things</h1>
        <p className="lead">
          {site.name} is a quoting, invoicing and profit app for New Zealand tradespeople, sole traders and small
          businesses. It does one job well: helping you charge enough, get paid and keep tidy records — from your
          phone.
        </p>
      </PageHero>

      <div className="container container--prose prose section section--tight">
        <section aria-labelledby="a-why">
          <h2 id="a-why">Why it exists</h2>
          <p>
            Plenty of tradies are flat out and still not making what they should. The usual reason isn&apos;t the work
            — it&apos;s the quote. Prices get worked out in a head or on the back of a docket, the margin gets
            squeezed to win the job, GST gets forgotten, and the shortfall only shows up at the end of the year.
          </p>
          <p>
            {site.name} puts the real numbers in front of you before you quote: what the job costs you, what you&apos;ll
            clear at your margin and what to charge, with GST shown properly. Then it turns that into a professional
            quote, an invoice and, at the end of the period, the GST figures your accountant needs.
          </p>
        </section>

        <section aria-labelledby="a-what">
          <h2 id="a-what">What it does</h2>
          <ul>
            <li>A quote and profit calculator with margin, GST and a low-margin warning.</li>
            <li>Quotes and invoices as PDFs, emailed to your clients, with your logo and bank details.</li>
            <li>Payment tracking: Draft, Sent, Paid, with payment history.</li>
            <li>A client list with invoice history and payment terms.</li>
            <li>Templates for the jobs you price often.</li>
            <li>One-tap sync to Xero, and GST and annual reports as CSV.</li>
          </ul>
          <p>
            <a href="/features">See every feature</a> or <a href="/how-it-works">see how a job flows through it</a>.
          </p>
        </section>

        <section aria-labelledby="a-principles">
          <h2 id="a-principles">What we hold ourselves to</h2>
          <dl className="principles">
            <div>
              <dt>Money is exact</dt>
              <dd>
                Every amount is worked out in whole cents, never in rounded-off floating-point numbers, and GST is
                rounded the way the GST Act allows. The total on the screen, on the PDF and in the report is the same
                number.
              </dd>
            </div>
            <div>
              <dt>Your data is yours</dt>
              <dd>
                Download your reports as CSV at any time; ask for a full export, including for{' '}
                {c.exportDaysAfterTermination} days after you leave. We don&apos;t sell data and we don&apos;t show
                ads.
              </dd>
            </div>
            <div>
              <dt>Nothing gets lost</dt>
              <dd>
                Every change to a quote or invoice is recorded as it happens, so history can&apos;t be quietly
                rewritten — exactly what you want from business records you may need to show IRD.
              </dd>
            </div>
            <div>
              <dt>It works where you work</dt>
              <dd>
                Designed for a phone first, light enough for a weak signal, and it still opens with no signal at all.
              </dd>
            </div>
          </dl>
        </section>

        <section aria-labelledby="a-data">
          <h2 id="a-data">What we keep, and for how long</h2>
          <p>
            We keep your account, business settings, clients, quotes, invoices, payments and saved templates so the app
            works. When you delete your account, all of it goes within {c.deleteDaysAfterAccountDeletion} days: download
            your records first, because the tax rules require you to keep them for {c.invoiceRetentionYears} years. The details are in our <a href="/privacy">privacy policy</a>.
          </p>
        </section>

        <section aria-labelledby="a-contact">
          <h2 id="a-contact">Get in touch</h2>
          <p>
            We read every message. Email <a href={`mailto:${site.supportEmail}`}>{site.supportEmail}</a> or visit{' '}
            <a href="/support">support</a>.
          </p>
        </section>
      </div>

      <CtaBand title="Try it free for 14 days" />
    </>
  );
}
