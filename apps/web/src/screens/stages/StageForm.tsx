// The form under the Stages card's buttons: a deposit (a percent of the quote or a fixed amount), a
// progress invoice (the job's overall percent complete, a fixed amount, or a percent of each line)
// or the final invoice (what is left, confirmed). The new draft invoice opens on success; a refusal
// (past 100 %, more than is left) shows the server's sentence as it is.
import { useNavigate } from '@tanstack/react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { DocumentDetail, StageInput } from '@tradie/contracts';
import { api } from '../../api/client.ts';
import { FormButtons } from '../../ui/FormButtons.tsx';
import { FormField } from '../../ui/FormField.tsx';
import { MoneyInput } from '../../ui/MoneyInput.tsx';
import { RadioGroup } from '../../ui/RadioGroup.tsx';
import { ErrorAlert } from '../../ui/Status.tsx';
import { money } from '../invoice-detail/view.ts';
import { useCommand } from '../shared/command.ts';
import { useIdempotencyKeys } from '../shared/idempotency.ts';
import { invoiceStage } from './queries.ts';
import { percentPreview, stageBody, type StageKind, type StageMode, type Stages } from './stages.ts';
import { documentKeys, invalidateDocuments } from '../shared/queries.ts';

const MODES: Record<Exclude<StageKind, 'final'>, { mode: StageMode; label: string }[]> = {
  deposit: [
    { mode: 'percent', label: 'Percent' },
    { mode: 'amount', label: 'Amount' },
  ],
  progress: [
    { mode: 'percent_complete', label: '% complete' },
    { mode: 'amount', label: 'Amount' },
    { mode: 'lines', label: 'Per line' },
  ],
};

const TITLES: Record<StageKind, string> = { deposit: 'Invoice a deposit', progress: 'Progress invoice', final: 'Final invoice' };

interface Props {
  doc: DocumentDetail;
  stages: Stages;
  kind: StageKind;
  onCancel: () => void;
}

export function StageForm({ doc, stages, kind, onCancel }: Props) {
  const id = useId();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { keyFor } = useIdempotencyKeys();
  // A deposit starts as the one the quote asked for (a percentage, or its amount).
  const asked = kind === 'deposit' ? doc.deposit : null;
  const [mode, setMode] = useState<StageMode>(kind === 'progress' ? 'percent_complete' : asked && asked.percent === null ? 'amount' : 'percent');
  const [value, setValue] = useState(asked ? (asked.percent ?? asked.amount.toFixed(2)) : '');
  const [linePercents, setLinePercents] = useState<Record<number, string>>({});

  const create = useCommand({
    run: (body: StageInput) => invoiceStage(api, doc.id, body, keyFor('stage', body)),
    failed: 'Could not create the invoice',
    onDone: async (invoice) => {
      queryClient.setQueryData(documentKeys.detail(invoice.id), invoice);
      void invalidateDocuments(queryClient);
      await navigate({ to: '/app/invoices/$id', params: { id: invoice.id } });
    },
  });

  const { error, invalid, clearInvalid } = create;
  const submit = create.submit(() => stageBody({ kind, mode, value, linePercents }));

  const chooseMode = (next: StageMode) => {
    setMode(next);
    clearInvalid();
  };
  const valueId = `${id}-value`;

  return (
    <form className="stages__form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="stages__form-title">
        {TITLES[kind]}
      </h3>

      {kind === 'final' ? (
        <p className="stages__final" data-testid="final-remainder">
          The final invoice takes what is left of the quote: <strong>{money(stages.remaining)}</strong> (GST included).
        </p>
      ) : (
        <>
          <RadioGroup
            look="segmented"
            className={`stages__modes stages__modes--${MODES[kind].length}`}
            name={`${id}-mode`}
            legend="Work it out by"
            options={MODES[kind].map((m) => ({ value: m.mode, label: m.label }))}
            value={mode}
            onChange={chooseMode}
          />

          {mode === 'lines' ? (
            <LinePercents doc={doc} id={id} values={linePercents} onChange={(i, v) => setLinePercents((was) => ({ ...was, [i]: v }))} />
          ) : mode === 'amount' ? (
            <FormField id={valueId} label="Amount (GST included)" hint={`${money(stages.remaining)} is left to invoice.`}>
              {(describedBy) => <MoneyInput id={valueId} required value={value} aria-describedby={describedBy} aria-invalid={invalid ? true : undefined} onValueChange={setValue} />}
            </FormField>
          ) : (
            <FormField
              id={valueId}
              label={mode === 'percent_complete' ? 'How far through the job (% complete)' : 'Percent of the quote'}
              hint={
                mode === 'percent_complete'
                  ? 'Each line is invoiced up to this share of it, less what is invoiced already.'
                  : (percentPreview(value, stages.quoted) ?? `Of the quote's ${money(stages.quoted)}.`)
              }
            >
              {(describedBy) => (
                <div className="stages__percent">
                  <input
                    id={valueId}
                    className="input input--number"
                    type="text"
                    inputMode="decimal"
                    autoComplete="off"
                    required
                    value={value}
                    aria-describedby={describedBy}
                    aria-invalid={invalid ? true : undefined}
                    onChange={(e) => setValue(e.target.value)}
                  />
                  <span className="stages__percent-sign" aria-hidden="true">
                    %
                  </span>
                </div>
              )}
            </FormField>
          )}
        </>
      )}

      <ErrorAlert message={error} testId="stage-error" />
      <FormButtons
        className="detail-form__buttons"
        submit={create.pending ? 'Creating...' : kind === 'final' ? 'Create final invoice' : 'Create invoice'}
        busy={create.pending}
        onCancel={onCancel}
      />
    </form>
  );
}

/** Per line: the percent of each quote line to invoice now (blank: none of it this time). */
function LinePercents({ doc, id, values, onChange }: { doc: DocumentDetail; id: string; values: Record<number, string>; onChange: (index: number, value: string) => void }) {
  return (
    <fieldset className="stages__lines">
      <legend className="field__label">Percent of each line to invoice now</legend>
      <p className="field__hint">Leave a line blank to invoice none of it this time.</p>
      <ul className="stages__line-list">
        {doc.line_items.map((line, i) => {
          const inputId = `${id}-line-${i}`;
          return (
            <li key={i} className="stages__line">
              <label htmlFor={inputId} className="stages__line-label">
                <span className="stages__line-desc">{line.description}</span>
                <span className="stages__line-amount">{money(line.amount + (line.tax_included ? 0 : line.gst))} incl. GST</span>
              </label>
              <div className="stages__percent stages__percent--line">
                <input
                  id={inputId}
                  className="input input--number"
                  type="text"
                  inputMode="decimal"
                  autoComplete="off"
                  value={values[i] ?? ''}
                  onChange={(e) => onChange(i, e.target.value)}
                />
                <span className="stages__percent-sign" aria-hidden="true">
                  %
                </span>
              </div>
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
