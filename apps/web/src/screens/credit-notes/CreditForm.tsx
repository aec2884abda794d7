// Credit an issued invoice: the whole of it, some of its lines (each in full or part of its
// quantity) or an amount, with the reason the credit note will carry. The server's sentence is
// shown when it refuses (more than is left, a line credited in full already).
import './credit-notes.css';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { CreditNoteInput, CreditNoteRecord, DocumentDetail } from '@tradie/contracts';
import { api } from '../../api/client.ts';
import { FormButtons } from '../../ui/FormButtons.tsx';
import { FormField } from '../../ui/FormField.tsx';
import { MoneyInput } from '../../ui/MoneyInput.tsx';
import { RadioGroup } from '../../ui/RadioGroup.tsx';
import { ErrorAlert } from '../../ui/Status.tsx';
import { useCommand } from '../shared/command.ts';
import { useIdempotencyKeys } from '../shared/idempotency.ts';
import { money } from '../invoice-detail/view.ts';
import { creditBody, leftToCredit, type CreditMode, type LineChoice } from './creditNotes.ts';
import { creditNoteKeys, issueCreditNote } from './queries.ts';
import { invalidateDocuments } from '../shared/queries.ts';

const MODES: { mode: CreditMode; label: string; detail: string }[] = [
  { mode: 'whole', label: 'Whole invoice', detail: 'Everything that is left to credit.' },
  { mode: 'lines', label: 'Some lines', detail: 'Tick the lines; part of a quantity is fine.' },
  { mode: 'amount', label: 'An amount', detail: 'A sum including GST, e.g. a discount.' },
];

interface Props {
  doc: DocumentDetail;
  onDone: (note: CreditNoteRecord) => void;
  onCancel: () => void;
}

export function CreditForm({ doc, onDone, onCancel }: Props) {
  const id = useId();
  const queryClient = useQueryClient();
  const { keyFor, forget } = useIdempotencyKeys();
  const [mode, setMode] = useState<CreditMode>('whole');
  const [lines, setLines] = useState<Record<number, LineChoice>>({});
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const left = leftToCredit(doc);

  const issue = useCommand({
    run: (body: CreditNoteInput) => issueCreditNote(api, doc.id, body, keyFor('credit', body)),
    failed: 'Could not credit the invoice',
    onDone: (note) => {
      forget('credit');
      queryClient.setQueryData<CreditNoteRecord[]>(creditNoteKeys.list(doc.id), (prev) => (prev ? [...prev.filter((n) => n.id !== note.id), note] : prev));
      void invalidateDocuments(queryClient);
      onDone(note);
    },
  });

  const { error, clearInvalid } = issue;
  const submit = issue.submit(() => creditBody({ mode, lines, amount, reason }, doc));

  const chooseMode = (next: CreditMode) => {
    setMode(next);
    clearInvalid();
  };
  const setLine = (i: number, change: Partial<LineChoice>) => setLines((was) => ({ ...was, [i]: { checked: false, qty: '', ...was[i], ...change } }));

  return (
    <form className="card card--emphasis detail-form credit-form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="card__title">
        Credit this invoice
      </h3>
      <p className="field__hint credit-form__intro">
        {money(left)} is left to credit. A credit note gets its own number and counts in the GST period it is issued in.
      </p>

      <RadioGroup
        look="list"
        className="credit-form__modes"
        name={`${id}-mode`}
        legend="What to credit"
        options={MODES.map((m) => ({ value: m.mode, label: m.label, detail: m.detail }))}
        value={mode}
        onChange={chooseMode}
      />

      {mode === 'lines' && (
        <fieldset className="credit-form__lines">
          <legend className="visually-hidden">Lines to credit</legend>
          <ul className="credit-form__line-list">
            {doc.line_items.map((line, i) => {
              const choice = lines[i];
              const qtyId = `${id}-qty-${i}`;
              return (
                <li key={i} className="credit-form__line">
                  <label className="choice credit-form__line-choice">
                    <input type="checkbox" checked={choice?.checked ?? false} onChange={(e) => setLine(i, { checked: e.target.checked })} />
                    <span className="credit-form__choice-text">
                      <span>{line.description}</span>
                      <span className="credit-form__choice-detail">
                        {line.qty} × {line.formatted.unit_price} = {line.formatted.amount}
                        {line.tax_rate > 0 ? ' + GST' : ''}
                      </span>
                    </span>
                  </label>
                  {choice?.checked && (
                    <div className="credit-form__qty">
                      <label htmlFor={qtyId} className="field__label">
                        Qty to credit<span className="visually-hidden"> of {line.description}</span>
                      </label>
                      <input
                        id={qtyId}
                        className="input input--number"
                        type="text"
                        inputMode="decimal"
                        autoComplete="off"
                        placeholder={`All (${line.qty})`}
                        value={choice.qty}
                        onChange={(e) => setLine(i, { qty: e.target.value })}
                      />
                    </div>
                  )}
                </li>
              );
            })}
          </ul>
        </fieldset>
      )}

      {mode === 'amount' && (
        <FormField id={`${id}-amount`} label="Amount (GST included)" hint={`At most ${money(left)}.`} className="field--spaced">
          {(describedBy) => <MoneyInput id={`${id}-amount`} required value={amount} aria-describedby={describedBy} onValueChange={setAmount} />}
        </FormField>
      )}

      <FormField id={`${id}-reason`} label="Reason" hint="Printed on the credit note.">
        {(describedBy) => (
          <textarea
            id={`${id}-reason`}
            className="input"
            required
            maxLength={500}
            rows={2}
            placeholder="e.g. One part returned"
            value={reason}
            aria-describedby={describedBy}
            onChange={(e) => setReason(e.target.value)}
          />
        )}
      </FormField>

      <ErrorAlert message={error} testId="credit-error" />
      <FormButtons className="detail-form__buttons" submit={issue.pending ? 'Saving...' : 'Issue credit note'} busy={issue.pending} onCancel={onCancel} />
    </form>
  );
}
