// The Profile, Email Settings and Currency tabs.
import type { SessionUser } from '../../app/auth.ts';
import { FormField } from '../../ui/FormField.tsx';
import { bindSettings, Field } from './fields.tsx';
import type { SettingsFormValues } from './settingsForm.ts';

type Change = (field: keyof SettingsFormValues, value: string) => void;

/** The Profile tab: Full Name, Email and Phone from the signed-in user; not part of Save Settings. */
export function ProfileTab({ user }: { user: SessionUser | null }) {
  return (
    <div className="card">
      <h2 className="card__title">Profile</h2>
      <p className="card__intro">These come from your account. Save Settings doesn't change them.</p>
      <div className="form-grid">
        <Field id="profile-full-name" label="Full Name" value={user?.full_name ?? ''} readOnly autoComplete="name" />
        <Field id="profile-email" label="Email" type="email" value={user?.email ?? ''} readOnly autoComplete="email" />
        <Field id="profile-phone" label="Phone" type="tel" value="" readOnly autoComplete="tel" />
      </div>
    </div>
  );
}

export function EmailTab({ values, onChange }: { values: SettingsFormValues; onChange: Change }) {
  const bind = bindSettings(values, onChange);
  return (
    <div className="card">
      <h2 className="card__title">Email &amp; PDF Settings</h2>
      <p className="card__intro">What your quotes and invoices say when you email them.</p>
      <div className="form-grid">
        <Field id="settings-email-subject" label="Default Email Subject" {...bind('default_email_subject')} hint="Available placeholders: [Business Name], [Invoice Number], [Client Name]" wide />
        <FormField id="settings-email-message" label="Default Email Message" wide>
          {() => {
            const message = bind('default_email_message');
            return <textarea id="settings-email-message" className="input settings-input--textarea" rows={8} value={message.value} onChange={(e) => message.onChange(e.target.value)} maxLength={message.maxLength} />;
          }}
        </FormField>
        <Field id="settings-cc-email" label="CC Email (optional)" type="email" inputMode="email" autoComplete="email" {...bind('cc_email')} />
        <Field id="settings-bcc-email" label="BCC Email (optional)" type="email" inputMode="email" autoComplete="email" {...bind('bcc_email')} />
      </div>
    </div>
  );
}

/** The partner the Currency tab points to for invoicing in other currencies. */
export const CURRENCY_PARTNER = {
  name: 'Wise Business',
  url: 'https://wise.com/nz/business/',
} as const;

export function CurrencyTab() {
  return (
    <div className="card">
      <h2 className="card__title">Currency</h2>
      <FormField id="settings-currency" label="Default Currency" hint="Multi-currency invoicing coming soon">
        {(describedBy) => (
          <select id="settings-currency" className="input" value="NZD" disabled aria-describedby={describedBy}>
            <option value="NZD">NZD - New Zealand Dollar</option>
          </select>
        )}
      </FormField>
      <aside className="settings-promo" aria-labelledby="settings-promo-title">
        <h3 id="settings-promo-title" className="settings-promo__title">
          Need Overseas Currency Invoicing?
        </h3>
        <p>
          Working for clients overseas? {CURRENCY_PARTNER.name} lets you get paid in other currencies with local account details, and convert to NZD at
          the real exchange rate with low, upfront fees.
        </p>
        <a className="button button--secondary settings-promo__link" href={CURRENCY_PARTNER.url} target="_blank" rel="noopener noreferrer">
          Explore {CURRENCY_PARTNER.name}
          <span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      </aside>
    </div>
  );
}
