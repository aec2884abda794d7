// Business & Logo: the logo (preview, upload, remove), the business details, GST registration, GST
// rounding and the bank details.
import { useRef } from 'react';
import type { FieldWarning } from '@tradie/contracts';
import type { CheckedBusinessField } from '@tradie/domain';
import { bindSettings, Field } from './fields.tsx';
import { GstRegistrationCard } from './GstRegistrationCard.tsx';
import { GstRoundingCard } from './GstRoundingCard.tsx';
import { logoSrc } from './queries.ts';
import { SETTINGS_TEXT, type NumberProblem, type SettingsFormValues } from './settingsForm.ts';
import { Card } from '../../ui/Card.tsx';
import { FormField } from '../../ui/FormField.tsx';

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
    <Card titleId="settings-logo-title" title="Business Logo">
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
    </Card>
  );
}

interface NumberChecks {
  /** The numbers the last save refused, while they still hold the refused value. */
  problems?: NumberProblem[];
  /** The numbers the tradie chose to keep as typed. */
  keep?: readonly CheckedBusinessField[];
  onKeep?: (field: CheckedBusinessField, kept: boolean) => void;
}

/** The props that show a refused number by its field: the error, and (when it may be kept) the choice to keep it. */
export function numberCheck(field: CheckedBusinessField, { problems = [], keep = [], onKeep }: NumberChecks) {
  const problem = problems.find((p) => p.field === field);
  const id = `keep-${field}`;
  return {
    error: problem?.message,
    afterError: problem?.keepable && onKeep && (
      <label className="field__keep" htmlFor={id}>
        <input id={id} type="checkbox" checked={keep.includes(field)} onChange={(e) => onKeep(field, e.target.checked)} /> {SETTINGS_TEXT.keepAsTyped}
      </label>
    ),
  };
}

export function BusinessDetails({ values, onChange, warnings, ...checks }: { values: SettingsFormValues; onChange: Change; warnings: FieldWarning[] } & NumberChecks) {
  const warningFor = (field: string) => warnings.find((w) => w.field === field)?.message;
  const bind = bindSettings(values, onChange);
  return (
    <>
      <Card titleId="settings-business-title" title="Business Details">
        <div className="form-grid">
          <Field id="settings-business-name" label="Business Name" {...bind('business_name')} autoComplete="organization" />
          <Field id="settings-trading-as" label="Trading As (optional)" {...bind('trading_as')} />
          <Field id="settings-nzbn" label="NZBN (NZ Business Number)" {...bind('nzbn')} inputMode="numeric" warning={warningFor('nzbn')} {...numberCheck('nzbn', checks)} />
          <Field id="settings-gst-number" label="GST Number" {...bind('gst_number')} warning={warningFor('gst_number')} {...numberCheck('gst_number', checks)} />
          <Field id="settings-address" label="Business Address" {...bind('address')} autoComplete="street-address" wide />
          <Field id="settings-city" label="City" {...bind('city')} autoComplete="address-level2" />
          <Field id="settings-postcode" label="Postcode" {...bind('postcode')} autoComplete="postal-code" inputMode="numeric" />
        </div>
      </Card>
      <GstRegistrationCard />
      <Card titleId="settings-quote-terms-title" title="Accepting Quotes Online">
        <FormField
          id="settings-quote-terms"
          label="Quote terms"
          hint="Shown on the quote page you send; your client must tick that they accept these before accepting a quote online. Leave empty for none."
        >
          {(describedBy) => {
            const terms = bind('quote_terms');
            return (
              <textarea
                id="settings-quote-terms"
                className="input settings-input--textarea"
                rows={6}
                value={terms.value}
                onChange={(e) => terms.onChange(e.target.value)}
                maxLength={terms.maxLength}
                aria-describedby={describedBy}
              />
            );
          }}
        </FormField>
      </Card>
      <GstRoundingCard />
      <Card titleId="settings-bank-title" title="Bank Account Details">
        <p className="card__intro">These will appear on your invoices so clients know where to pay you.</p>
        <div className="form-grid">
          <Field id="settings-bank-name" label="Bank Name" {...bind('bank_name')} />
          <Field id="settings-bank-account-name" label="Account Name" {...bind('bank_account_name')} />
          <Field
            id="settings-bank-account-number"
            label="Account Number"
            {...bind('bank_account_number')}
            hint="NZ format: XX-XXXX-XXXXXXX-XXX"
            inputMode="numeric"
            warning={warningFor('bank_account_number')}
            {...numberCheck('bank_account_number', checks)}
            wide
          />
        </div>
      </Card>
    </>
  );
}
