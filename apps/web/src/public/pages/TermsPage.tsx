import { LastUpdated } from '../components/LastUpdated.tsx';
import { commitments as c, plans, site } from '../../site.ts';
import { PageHero } from '../components/PageSection.tsx';

export default function TermsPage() {
  return (
    <article className="legal">
      <PageHero legal prose>
        <p className="eyebrow">Legal</p>
        <h1>Terms of service</h1>
        <LastUpdated />
        <p className="lead">
          These terms are the agreement between you and {site.name} when you use the app. We&apos;ve kept them as
          short and plain as we can. The commitments we make to you are in bold.
        </p>
      </PageHero>

      <div className="container container--prose prose">
        <section aria-labelledby="t-who">
          <h2 id="t-who">1. Who can use {site.name}</h2>
          <p>
            <strong>You must be {c.minimumAge} or older</strong> and use {site.name} for your business or trade. If you
            sign up on behalf of a company, you confirm you may agree to these terms for it. Keep your password to
            yourself: you are responsible for what happens under your account.
          </p>
        </section>

        <section aria-labelledby="t-trial">
          <h2 id="t-trial">2. Free trial</h2>
          <p>
            New accounts get a free {plans.trialDays}-day trial with everything included and no credit card. When the
            trial ends you need a subscription to keep using the app. We keep your data while you decide; you are never
            charged unless you subscribe.
          </p>
        </section>

        <section aria-labelledby="fees">
          <h2 id="fees">3. Fees, billing and refunds</h2>
          <ul>
            <li>
              Full Access is {plans.fullAccessMonthly} a month. Fees exclude GST, which is added at the current rate, and
              are billed monthly or annually in advance, as you choose when you subscribe.
            </li>
            <li>
              <strong>
                We give you at least {c.noticeDays} days&apos; notice before any change to our fees applies to you.
              </strong>
            </li>
            <li>
              Fees are non-refundable except where the law requires a refund. Nothing in these terms limits a right
              you have under the Consumer Guarantees Act 1993 or the Fair Trading Act 1986 where those Acts apply.
            </li>
            <li>
              You can cancel at any time in Settings → Billing &amp; Trial. Cancelling stops future payments.
            </li>
          </ul>
        </section>

        <section aria-labelledby="t-data">
          <h2 id="t-data">4. Your data</h2>
          <ul>
            <li>
              Your business information, clients, quotes and invoices belong to you. We use them only to provide the
              service, as our <a href="/privacy">privacy policy</a> explains.
            </li>
            <li>
              <strong>
                After your account ends, you can get an export of your data for {c.exportDaysAfterTermination} days.
              </strong>
            </li>
            <li>
              <strong>
                When you delete your account, we delete your personal information within{' '}
                {c.deleteDaysAfterAccountDeletion} days.
              </strong>
            </li>
            <li>
              <strong>
                Your business records must be kept for {c.invoiceRetentionYears} years, as New Zealand tax rules require: they are yours, so download them before you delete your account — we keep no copy after it.
              </strong>
            </li>
          </ul>
        </section>

        <section aria-labelledby="t-tax">
          <h2 id="t-tax">5. Your tax and your paperwork</h2>
          <p>
            {site.name} works out GST, totals and reports from what you enter, and we take care to get the arithmetic
            exactly right. But you remain responsible for your own tax returns, for the prices you charge and for
            what your quotes and invoices say. The reports are a tool, not tax advice: talk to an accountant or a tax
            service about your situation.
          </p>
        </section>

        <section aria-labelledby="t-use">
          <h2 id="t-use">6. Fair use</h2>
          <p>
            Don&apos;t use {site.name} for anything unlawful, to send spam or misleading documents, to hold
            information you have no right to hold, or to interfere with the service or other people&apos;s accounts.
            We may suspend an account that does, and will tell you why.
          </p>
        </section>

        <section aria-labelledby="t-service">
          <h2 id="t-service">7. The service</h2>
          <p>
            We work to keep {site.name} available and your data safe, and we improve the app over time. Sometimes it
            will be unavailable for maintenance or for reasons outside our control. Features shown as &lsquo;coming
            soon&rsquo; are plans, not promises. Connections to other services (such as your accounting software or
            email) also depend on those services.
          </p>
        </section>

        <section aria-labelledby="t-liability">
          <h2 id="t-liability">8. Liability</h2>
          <p>
            <strong>
              Our total liability to you for any claim about the service is limited to the fees you paid us in the{' '}
              {c.liabilityMonths} months before the claim arose.
            </strong>{' '}
            We are not liable for indirect losses such as lost profits or lost opportunities. These limits apply to the
            extent the law allows.
          </p>
        </section>

        <section aria-labelledby="t-end">
          <h2 id="t-end">9. Ending the agreement</h2>
          <p>
            You can stop using {site.name} and cancel your subscription at any time. We may end the agreement if you
            seriously breach these terms, or with reasonable notice if we stop providing the service. Either way, the
            export and deletion commitments in section 4 apply.
          </p>
        </section>

        <section aria-labelledby="t-changes">
          <h2 id="t-changes">10. Changes to these terms</h2>
          <p>
            <strong>We give you at least {c.noticeDays} days&apos; notice of any material change to these terms</strong>,
            by email and in the app. If you keep using {site.name} after a change takes effect, the new terms apply.
          </p>
        </section>

        <section aria-labelledby="t-law">
          <h2 id="t-law">11. New Zealand law</h2>
          <p>These terms are governed by New Zealand law, and New Zealand courts can hear any dispute about them.</p>
        </section>

        <section aria-labelledby="t-contact">
          <h2 id="t-contact">12. Contact</h2>
          <p>
            Questions about these terms: <a href={`mailto:${site.supportEmail}`}>{site.supportEmail}</a>.
          </p>
        </section>
      </div>
    </article>
  );
}
