// Business & Logo: the logo (preview, upload, remove), the business details and the bank details.
import { useRef } from 'react';
import { BUSINESS_SETTINGS_LIMITS, type FieldWarning } from '@tradie/contracts';
import { Field } from './fields.tsx';
import { logoSrc } from './queries.ts';
import type { SettingsFormValues } from './settingsForm.ts';

type Change = (field: keyof SettingsFormValues, value: string) => void;

interface LogoProps {
  /** undefined while the settings are loading; '' when there is no logo. */
  logoUrl: string | undefined;
  uploading: boolean;
  deleting: boolean;
  onUpload: (file: File) => void;
  onRemove: () => void;
  /** Set when the stored logo could not be read and PDFs are made without it. */
  warning?: string | undefined;
}

const LOGO_TYPES = 'image/png,image/jpeg,image/svg+xml,.png,.jpg,.jpeg,.svg';

export function LogoSection({ logoUrl, uploading, deleting, onUpload, onRemove, warning }: LogoProps) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <section className="card" aria-labelledby="settings-logo-title">
      <h2 id="settings-logo-title" className="card__title">
        Business Logo
      </h2>
      <div className="settings-logo">
        <div className="settings-logo__preview">
          {logoUrl ? (
            <img className="settings-logo__image" src={logoSrc(logoUrl)} alt="Your business logo" />
          ) : logoUrl === '' ? (
            <p className="settings-logo__empty">No logo uploaded yet</p>
          ) : null}
        </div>
        <div className="settings-logo__actions">
          <button type="button" className="button button--secondary" onClick={() => input.current?.click()} disabled={uploading} aria-describedby="settings-logo-hint">
            {uploading ? 'Uploading...' : '📸 Upload Logo'}
          </button>
          {logoUrl && (
            <button type="button" className="button button--danger settings-logo__remove" onClick={onRemove} disabled={deleting}>
              🗑️ Remove Logo
            </button>
          )}
          <input
            ref={input}
            className="settings-logo__input"
            type="file"
            accept={LOGO_TYPES}
            tabIndex={-1}
            aria-hidden="true"
            data-testid="logo-file"
            onChange={(e) => {
              const file = e.target.files?.[0];
              // Cleared, so choosing the same file again still uploads it.
              e.target.value = '';
              if (file) onUpload(file);
            }}
          />
        </div>
      </div>
      {warning && (
        <p className="callout callout--warning field__warning" role="alert">
          {warning}
        </p>
      )}
      <p id="settings-logo-hint" className="field__hint">
        PNG, JPG or SVG. Max 2MB. This appears on your invoices and quotes.
      </p>
    </section>
  );
}

export function BusinessDetails({ values, onChange, warnings }: { values: SettingsFormValues; onChange: Change; warnings: FieldWarning[] }) {
  const warningFor = (field: string) => warnings.find((w) => w.field === field)?.message;
  const L = BUSINESS_SETTINGS_LIMITS;
  return (
    <>
      <section className="card" aria-labelledby="settings-business-title">
        <h2 id="settings-business-title" className="card__title">
          Business Details
        </h2>
        <div className="form-grid">
          <Field id="settings-business-name" label="Business Name" value={values.business_name} onChange={(v) => onChange('business_name', v)} autoComplete="organization" maxLength={L.business_name} />
          <Field id="settings-trading-as" label="Trading As (optional)" value={values.trading_as} onChange={(v) => onChange('trading_as', v)} maxLength={L.trading_as} />
          <Field
            id="settings-nzbn"
            label="NZBN (NZ Business Number)"
            value={values.nzbn}
            onChange={(v) => onChange('nzbn', v)}
            inputMode="numeric"
            warning={warningFor('nzbn')}
            maxLength={L.nzbn}
          />
          <Field
            id="settings-gst-number"
            label="GST Number"
            value={values.gst_number}
            onChange={(v) => onChange('gst_number', v)}
            warning={warningFor('gst_number')}
            maxLength={L.gst_number}
          />
          <Field id="settings-address" label="Business Address" value={values.address} onChange={(v) => onChange('address', v)} autoComplete="street-address" wide maxLength={L.address} />
          <Field id="settings-city" label="City" value={values.city} onChange={(v) => onChange('city', v)} autoComplete="address-level2" maxLength={L.city} />
          <Field id="settings-postcode" label="Postcode" value={values.postcode} onChange={(v) => onChange('postcode', v)} autoComplete="postal-code" inputMode="numeric" maxLength={L.postcode} />
        </div>
      </section>
      <section className="card" aria-labelledby="settings-bank-title">
        <h2 id="settings-bank-title" className="card__title">
          Bank Account Details
        </h2>
        <p className="card__intro">These will appear on your invoices so clients know where to pay you.</p>
        <div className="form-grid">
          <Field id="settings-bank-name" label="Bank Name" value={values.bank_name} onChange={(v) => onChange('bank_name', v)} maxLength={L.bank_name} />
          <Field id="settings-bank-account-name" label="Account Name" value={values.bank_account_name} onChange={(v) => onChange('bank_account_name', v)} maxLength={L.bank_account_name} />
          <Field
            id="settings-bank-account-number"
            label="Account Number"
            value={values.bank_account_number}
            onChange={(v) => onChange('bank_account_number', v)}
            hint="NZ format: XX-XXXX-XXXXXXX-XXX"
            maxLength={L.bank_account_number}
            wide
          />
        </div>
      </section>
    </>
  );
}
