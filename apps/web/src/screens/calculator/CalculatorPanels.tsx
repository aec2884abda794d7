/**
 * The calculator's panels around the lines, each memoised on what it shows: a keystroke in a line
 * re-renders the screen and that line only (the totals, margin and Generate panels follow one
 * deferred render later, with the new figures; the document and templates panels not at all).
 */
import { memo, useMemo, useState, type Dispatch } from 'react';
import type { ClientRecord } from '@tradie/contracts';
import {
  formatNzd,
  GST_RATE_PERCENT,
  MARGIN_BASES,
  MARGIN_BASIS_LABELS,
  MARGIN_HINT,
  MARGIN_WORDS,
  MAX_MARGIN_PERCENT,
  type DocumentTotals,
  type CostCategory,
  type MarginBasis,
} from '@tradie/domain';
import type { Template, TemplateClientData } from '../../templates/templateStore.ts';
import { TemplateButton } from '../../templates/TemplateButton.tsx';
import type { CalculatorAction, CalculatorFigures, DocumentType } from './calculatorModel.ts';
import type { ClientChoice } from './clientChoice.ts';
import { ClientPicker } from './ClientPicker.tsx';
import { FormField } from '../../ui/FormField.tsx';
import { Card } from '../../ui/Card.tsx';
import { ProfitSummary } from '../shared/ProfitSummary.tsx';
import { profitViewOf } from '../shared/profitShown.ts';
import { ErrorAlert } from '../../ui/Status.tsx';
import { RadioGroup, type RadioOption } from '../../ui/RadioGroup.tsx';
import { useCommand } from '../shared/command.ts';

/** One field of the quick-add client form (name, email or phone). */
function QuickAddField({
  field,
  label,
  required,
  type,
  inputMode,
  autoCapitalize,
  client,
  onChange,
}: {
  field: 'name' | 'email' | 'phone';
  label: string;
  required?: boolean;
  type: 'text' | 'email' | 'tel';
  inputMode?: 'email';
  autoCapitalize?: 'words';
  client: TemplateClientData;
  onChange: (client: TemplateClientData) => void;
}) {
  const id = `new-client-${field}`;
  const labelText = required ? (
    <>
      {label} <span className="field__required">(required)</span>
    </>
  ) : (
    label
  );
  return (
    <FormField id={id} className="field--spaced" label={labelText}>
      {() => (
        <input
          id={id}
          className="input"
          type={type}
          required={required}
          inputMode={inputMode}
          autoComplete="off"
          autoCapitalize={autoCapitalize}
          value={client[field]}
          onChange={(e) => onChange({ ...client, [field]: e.target.value })}
        />
      )}
    </FormField>
  );
}

const DOCUMENT_TYPES = [
  { value: 'quote', label: 'Quote' },
  { value: 'invoice', label: 'Invoice' },
] as const satisfies readonly RadioOption<DocumentType>[];

export const DocumentPanel = memo(function DocumentPanel({
  type,
  dispatch,
  clients,
  clientsLoading,
  choice,
  onChoose,
  newClient,
  onNewClient,
  typeLocked = false,
}: {
  type: DocumentType;
  dispatch: Dispatch<CalculatorAction>;
  clients: readonly ClientRecord[];
  clientsLoading: boolean;
  choice: ClientChoice;
  onChoose: (choice: ClientChoice) => void;
  newClient: TemplateClientData;
  onNewClient: (client: TemplateClientData) => void;
  /** A draft being edited stays what it is (a quote is made an invoice by converting it). */
  typeLocked?: boolean;
}) {
  return (
    <Card titleId="calc-doc-title" title="Document">
      <RadioGroup look="segmented" name="calc-doc-type" legend="Document type" options={DOCUMENT_TYPES} value={type} onChange={(value) => dispatch({ type: 'setType', value })} disabled={typeLocked} />

      <ClientPicker clients={clients} loading={clientsLoading} choice={choice} onChoose={onChoose} />

      {choice.kind === 'new' && (
        <fieldset className="calc-quick-add">
          <legend className="calc-quick-add__title">Add New Client</legend>
          <QuickAddField field="name" label="Name" required type="text" autoCapitalize="words" client={newClient} onChange={onNewClient} />
          <QuickAddField field="email" label="Email" type="email" inputMode="email" client={newClient} onChange={onNewClient} />
          <QuickAddField field="phone" label="Phone" type="tel" client={newClient} onChange={onNewClient} />
        </fieldset>
      )}
    </Card>
  );
});

export const TotalsPanel = memo(function TotalsPanel({
  totals,
  includeGst,
  registered,
  dispatch,
}: {
  totals: DocumentTotals;
  includeGst: boolean;
  /** The business is registered for GST (Settings → Business); when not, there is no GST to add. */
  registered: boolean;
  dispatch: Dispatch<CalculatorAction>;
}) {
  if (!registered) {
    return (
      <Card titleId="calc-totals-title" title="Totals" className="calc-totals" hiddenTitle>
        <p className="field__hint" data-testid="calc-not-registered">
          Not registered for GST: no GST is added. Change this in Settings → Business.
        </p>
        <dl className="figures">
          <div className="figures__row figures__row--total">
            <dt>Total</dt>
            <dd data-testid="calc-total">{formatNzd(totals.totalCents)}</dd>
          </div>
        </dl>
      </Card>
    );
  }
  return (
    <Card titleId="calc-totals-title" title="Totals" className="calc-totals" hiddenTitle>
      <label className="switch">
        <input type="checkbox" role="switch" checked={includeGst} onChange={(e) => dispatch({ type: 'setIncludeGst', value: e.target.checked })} />
        <span className="switch__track" aria-hidden="true" />
        <span className="switch__label">Include GST ({GST_RATE_PERCENT}%)</span>
      </label>
      <dl className="figures">
        <div className="figures__row">
          <dt>Subtotal</dt>
          <dd data-testid="calc-subtotal">{formatNzd(totals.subtotalCents)}</dd>
        </div>
        <div className="figures__row">
          <dt>GST ({GST_RATE_PERCENT}%)</dt>
          <dd data-testid="calc-gst">{formatNzd(totals.gstCents)}</dd>
        </div>
        <div className="figures__row figures__row--total">
          <dt>Total {includeGst ? '(incl. GST)' : '(excl. GST)'}</dt>
          <dd data-testid="calc-total">{formatNzd(totals.totalCents)}</dd>
        </div>
      </dl>
    </Card>
  );
});

export const MarginPanel = memo(function MarginPanel({
  margin,
  profit,
  marginText,
  categoryRates,
  dispatch,
  onApply,
  onBasis,
  basis,
}: {
  /** Each category's percentage from Settings, which 'Price from cost' prices at until a percentage is typed for this job; null: the typed one. */
  categoryRates: readonly CostCategory[] | null;
  margin: CalculatorFigures['margin'];
  /** Cost, sell and gross profit of the lines as they stand, per category. */
  profit: CalculatorFigures['profit'];
  marginText: string;
  /** The basis as chosen, not deferred: the radio moves in the same render as the tap. */
  basis: MarginBasis;
  dispatch: Dispatch<CalculatorAction>;
  onApply: () => void;
  onBasis: (basis: MarginBasis) => void;
}) {
  const [open, setOpen] = useState(false);
  // Each way of working names its own number: a markup on cost, or a margin on the price.
  const words = MARGIN_WORDS[basis];
  const shown = useMemo(() => profitViewOf(profit), [profit]);
  return (
    <section className="card" aria-labelledby="calc-margin-title">
      <h2 className="card__title disclosure__heading">
        <button id="calc-margin-title" type="button" className="disclosure__toggle" aria-expanded={open} aria-controls="calc-margin-body" onClick={() => setOpen((o) => !o)}>
          Profit
          <span className="disclosure__summary chip chip--brand" data-testid="margin-chip">
            {categoryRates ? `Your rates, ${MARGIN_WORDS[margin.basis].short}` : `${margin.percent}% ${MARGIN_WORDS[margin.basis].short}`}
          </span>
        </button>
      </h2>
      <div id="calc-margin-body" className="disclosure__body" hidden={!open}>
        <ProfitSummary profit={shown} idPrefix="calc" />
        <RadioGroup
          look="segmented"
          className="calc-margin-basis"
          name="calc-margin-basis"
          legend="Work out by"
          options={MARGIN_BASES.map((b) => ({ value: b, label: MARGIN_BASIS_LABELS[b] }))}
          value={basis}
          onChange={onBasis}
        />
        <div className="field field--spaced">
          <label htmlFor="calc-margin" className="field__label">
            {words.field}
          </label>
          <input
            id="calc-margin"
            className="input input--number input--short"
            type="number"
            inputMode="numeric"
            min={0}
            max={MAX_MARGIN_PERCENT[basis]}
            step={1}
            value={marginText}
            aria-describedby="calc-margin-hint"
            onChange={(e) => dispatch({ type: 'setMargin', text: e.target.value })}
            onBlur={() => dispatch({ type: 'settleMargin' })}
          />
          <p id="calc-margin-hint" className="field__hint">
            {MARGIN_HINT}. Prices each line that has a cost from its cost; lines without a cost keep their price.
            {categoryRates
              ? ` Until you type one for this job, each line is priced at its category's rate from Settings: ${categoryRates.map((c) => `${c.name} ${c.percent}%`).join(', ')}.`
              : ''}
          </p>
        </div>
        {margin.lowMargin && <p className="callout callout--warning">{words.lowWarning}</p>}
        {margin.inexactLines.length > 0 && (
          <p className="callout callout--warning" data-testid="margin-inexact">
            {margin.inexactLines.length === 1 ? 'One line has' : `${margin.inexactLines.length} lines have`} a quantity too large for a unit price with 4 decimals to
            give the exact amount: {margin.inexactLines.length === 1 ? 'it comes' : 'they come'} as near as it can.
          </p>
        )}
        <button type="button" className="button button--primary button--block" onClick={onApply} disabled={profit.costedLines === 0}>
          Price from cost
        </button>
        {profit.costedLines === 0 && <p className="field__hint">Type a cost on a line to price it from its cost.</p>}
      </div>
    </section>
  );
});

export const TemplatesPanel = memo(function TemplatesPanel({
  templates,
  onSave,
  onLoad,
  onDelete,
}: {
  templates: readonly Template[];
  /** Saves the calculator as a template of this name (on the server); false when it was not saved. */
  onSave: (name: string) => Promise<boolean>;
  onLoad: (t: Template) => void;
  onDelete: (t: Template) => void;
}) {
  const [templateName, setTemplateName] = useState('');
  const saving = useCommand({
    run: onSave,
    onDone: (saved) => {
      if (saved) setTemplateName('');
    },
  });
  const save = saving.submit(() => (templateName.trim() === '' ? { ok: false, error: 'Please enter a template name' } : { ok: true, body: templateName }));
  return (
    <Card titleId="calc-templates-title" title="Templates">
      <div className="calc-template-save">
        <label htmlFor="calc-template-name" className="field__label">
          Template name
        </label>
        <div className="calc-template-save__row">
          <input
            id="calc-template-name"
            className="input"
            type="text"
            autoComplete="off"
            enterKeyHint="done"
            placeholder="e.g. Deck job"
            value={templateName}
            onChange={(e) => setTemplateName(e.target.value)}
            aria-invalid={saving.invalid ? true : undefined}
            aria-describedby={saving.invalid ? 'calc-template-error' : undefined}
            onKeyDown={(e) => {
              if (e.key === 'Enter') save(e);
            }}
          />
          <button type="button" className="button button--secondary" onClick={() => save()} disabled={saving.pending} aria-busy={saving.pending}>
            Save Template
          </button>
        </div>
        <ErrorAlert id="calc-template-error" message={saving.invalid} />
      </div>
      {templates.length > 0 && (
        <ul className="calc-template-list" aria-label="Saved templates">
          {templates.map((t) => (
            <li key={t.id} className="calc-template-list__item">
              <span className="calc-template-list__name">
                {t.name}
                <span className="calc-template-list__meta">
                  {t.type === 'quote' ? 'Quote' : 'Invoice'} · {t.lineItems.length} {t.lineItems.length === 1 ? 'line' : 'lines'}
                </span>
              </span>
              <span className="calc-template-list__actions">
                <TemplateButton action="Load" template={t} onClick={() => onLoad(t)} />
                <TemplateButton action="Delete" template={t} onClick={() => onDelete(t)} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
});

export const GenerateBar = memo(function GenerateBar({
  totalCents,
  label,
  busyLabel,
  busy,
  error,
  onGenerate,
}: {
  totalCents: bigint;
  /** 'Generate Quote', or 'Save changes' while editing a draft. */
  label: string;
  busyLabel: string;
  busy: boolean;
  /** Why the last Generate made nothing. */
  error: string | null;
  onGenerate: () => void;
}) {
  return (
    <div className="calc__generate">
      <p className="calc__generate-total" aria-hidden="true">
        <span>Total</span>
        <strong>{formatNzd(totalCents)}</strong>
      </p>
      <button type="button" className="button button--accent button--large button--block" onClick={onGenerate} disabled={busy} aria-busy={busy}>
        {busy ? busyLabel : label}
      </button>
      <ErrorAlert message={error} className="calc__generate-error" testId="calc-generate-error" />
    </div>
  );
});
