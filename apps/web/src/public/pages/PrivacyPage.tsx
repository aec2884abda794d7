import { LastUpdated } from '../components/LastUpdated.tsx';
import { commitments as c, site } from '../../site.ts';
import { PageHero } from '../components/PageSection.tsx';

export default function PrivacyPage() {
  const mail = `mailto:${site.supportEmail}?subject=Privacy%20request`;
  return (
    <article className="legal">
      <PageHero legal prose>
        <p className="eyebrow">Legal</p>
        <h1>Privacy policy</h1>
        <LastUpdated />
        <p className="lead">
          {site.name} holds your business records and your clients&apos; details. This policy says, in plain words,
          what we collect, why, who sees it, how long we keep it and how you stay in control of it. We follow the
          New Zealand Privacy Act 2020.
        </p>
      </PageHero>

      <div className="container container--prose prose">
        <section aria-labelledby="p-summary">
          <h2 id="p-summary">The short version</h2>
          <ul className="commitment-list">
            <li>We only collect what the app needs to quote, invoice, report and bill you.</li>
            <li>We never sell your information or your clients&apos; information, and we show no advertising.</li>
            <li>You can export your data, including for {c.exportDaysAfterTermination} days after your account ends.</li>
            <li>
              When you delete your account (Settings → Account), your personal information and everything else in it is
              removed within {c.deleteDaysAfterAccountDeletion} days.
            </li>
            <li>
              New Zealand tax rules ask you to keep your business records for {c.invoiceRetentionYears} years: download
              them before you delete your account, because we don&apos;t keep a copy.
            </li>
            <li>We answer privacy requests within {c.privacyResponseWorkingDays} working days.</li>
          </ul>
        </section>

        <section aria-labelledby="p-collect">
          <h2 id="p-collect">What we collect</h2>
          <h3>About you</h3>
          <p>
            Your name, email address and password when you sign up. We store your password only as a one-way hash, so
            nobody — including us — can read it.
          </p>
          <h3>About your business</h3>
          <p>
            What you enter in Settings: business and trading name, NZBN, GST number, address, phone, your logo, your
            bank account details (printed on your invoices so clients can pay you) and your default email subject,
            message, CC and BCC.
          </p>
          <h3>About your clients and your work</h3>
          <p>
            The clients you add (names, contact details, business details, addresses and your internal notes) and the
            quotes, invoices, line items and payments you create. You are responsible for having your clients&apos;
            permission to hold their details, as you would in your own records; we look after them on your behalf.
          </p>
          <h3>To run the service</h3>
          <p>
            Sign-in records and failed sign-in attempts (so we can stop password guessing), your subscription status
            from our payment provider, and, if you connect it, the connection to your accounting software. We never see
            or store your full card number.
          </p>
          <h3>Kept only on your device</h3>
          <p>
            Saved quote and invoice templates stay in your browser and are never sent to our servers. Your browser also
            keeps your sign-in session and an offline copy of the app so it opens without signal.
          </p>
        </section>

        <section aria-labelledby="p-use">
          <h2 id="p-use">How we use it</h2>
          <ul>
            <li>To provide the app: calculating, creating and emailing your quotes and invoices, and your reports.</li>
            <li>To bill your subscription and tell you about your trial, your account and changes to the service.</li>
            <li>To keep the service secure, prevent misuse and fix problems.</li>
            <li>To answer you when you contact support.</li>
          </ul>
          <p>
            We do not use your information or your clients&apos; information for advertising, and we do not sell it. We
            use no advertising or cross-site tracking cookies.
          </p>
        </section>

        <section aria-labelledby="p-share">
          <h2 id="p-share">Who we share it with</h2>
          <p>Only the service providers that make the app work, and only what each one needs:</p>
          <ul>
            <li>
              <strong>Email delivery</strong> — to send the quotes and invoices you email, and our account emails (such
              as password resets).
            </li>
            <li>
              <strong>Our payment provider</strong> — to take subscription payments. It handles your card details
              directly.
            </li>
            <li>
              <strong>Your accounting software</strong> — only if you connect it, and only the invoices you choose to
              sync. You can disconnect at any time in Settings.
            </li>
            <li>
              <strong>Hosting</strong> — the infrastructure the app and its database run on.
            </li>
          </ul>
          <p>
            Some of these providers may store information outside New Zealand. When they do, we only use providers who
            protect it in ways comparable to the Privacy Act. We disclose information to authorities only when New
            Zealand law requires it.
          </p>
        </section>

        <section aria-labelledby="p-keep">
          <h2 id="p-keep">How long we keep it</h2>
          <ul>
            <li>
              While your account is open, we keep what you store so the app works — including after your trial ends, so
              nothing is lost if you subscribe later.
            </li>
            <li>
              When your account ends, you can still ask for an export of your data for{' '}
              {c.exportDaysAfterTermination} days.
            </li>
            <li>
              When you delete your account, we remove your personal information — and everything else in the account,
              including your clients&apos; details, quotes, invoices and payments — within{' '}
              {c.deleteDaysAfterAccountDeletion} days.
            </li>
            <li>
              New Zealand tax rules require business records to be kept for {c.invoiceRetentionYears} years. Those
              records are yours: download them at any time from Settings → Account (you are offered the download
              again before you delete your account). Once your account is deleted we don&apos;t keep a copy.
            </li>
          </ul>
        </section>

        <section aria-labelledby="p-rights">
          <h2 id="p-rights">Your rights: see, correct, export, delete</h2>
          <p>
            You can see and correct most of your information yourself in the app. You can also ask us for a copy of
            the personal information we hold about you, ask us to correct it, ask for an export of your data or ask us
            to delete your account. We answer every privacy request within {c.privacyResponseWorkingDays} working
            days.
          </p>
          <p>
            Email <a href={mail}>{site.supportEmail}</a> from the address on your account. If you&apos;re not happy
            with our answer, you can complain to the Office of the Privacy Commissioner.
          </p>
        </section>

        <section aria-labelledby="p-security">
          <h2 id="p-security">Keeping it safe</h2>
          <p>
            Everything travels over encrypted connections, passwords are hashed, sign-in sessions expire and are
            refreshed, and repeated failed sign-ins are slowed down. Access to your data inside {site.name} is limited
            to your own account. If a privacy breach is likely to cause you serious harm, we will tell you and the
            Privacy Commissioner as the Privacy Act requires.
          </p>
        </section>

        <section aria-labelledby="p-age">
          <h2 id="p-age">Age</h2>
          <p>
            {site.name} is for businesses. You must be {c.minimumAge} or older to create an account, and we do not
            knowingly collect information from anyone younger.
          </p>
        </section>

        <section aria-labelledby="p-changes">
          <h2 id="p-changes">Changes to this policy</h2>
          <p>
            If we make a material change to how we handle your information, we will tell you by email at least{' '}
            {c.noticeDays} days before it takes effect. The date at the top shows when this page was last updated.
          </p>
        </section>

        <section aria-labelledby="p-contact">
          <h2 id="p-contact">Contact</h2>
          <p>
            Questions about privacy: <a href={mail}>{site.supportEmail}</a>. See also our{' '}
            <a href="/terms">terms of service</a>.
          </p>
        </section>
      </div>
    </article>
  );
}
