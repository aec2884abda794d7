import { lazy, memo, Suspense, useState, type Dispatch, type FormEvent } from 'react';
import { DEFAULT_COST_CATEGORIES, type LinePricing } from '@tradie/domain';
import { type CalculatorAction, type LineDraft, type RowKind, NEW_LINE_CATEGORY } from './calculatorModel.ts';

// The price book picker's code (and the price book's queries) load only when a tradie opens it.
const PriceBookPicker = lazy(() => import('../price-book/PriceBookPicker.tsx').then((m) => ({ default: m.PriceBookPicker })));

interface Props {
  line: LineDraft;
  /** 0-based position, for the labels ('Line 2'). */
  index: number;
  /** qty × unit price as NZD text, from the domain's line totals. */
  amount: string;
  /** Saved, ignored as empty, or waiting for a description (then not in the totals). */
  kind: RowKind;
  /** Generate refused this row: the message under its description. */
  error: string | null;
  canRemove: boolean;
  autoFocus: boolean;
  /** The calculator's markup or margin when an item is picked (a stable function: rows stay memoised). */
  pricing: () => LinePricing;
  dispatch: Dispatch<CalculatorAction>;
}

const preventSubmit = (e: FormEvent) => e.preventDefault();

/** A line's qty or unit price: a numeric keypad, edited as text and settled to a number on blur. */
function NumberInput({ id, line, field, enterKeyHint, dispatch }: { id: string; line: LineDraft; field: 'qty' | 'unit_price' | 'cost'; enterKeyHint: 'next' | 'done'; dispatch: Dispatch<CalculatorAction> }) {
  return (
    <input
      id={id}
      className="input input--number"
      type="number"
      inputMode="decimal"
      required={field !== 'cost'}
      placeholder={field === 'cost' ? 'Not recorded' : undefined}
      min={0}
      // Quantities to the hundredth; unit prices to 4 decimals, as 'Apply margin' and the API keep them.
      step={field === 'qty' ? '0.01' : '0.0001'}
      enterKeyHint={enterKeyHint}
      value={line[field] ?? ''}
      onChange={(e) => dispatch({ type: 'editLine', key: line.key, field, value: e.target.value })}
      onBlur={() => dispatch({ type: 'settleNumber', key: line.key, field })}
    />
  );
}

/**
 * One line item. Memoised: typing in one row re-renders that row only (the others get the same
 * line object, amount text and the stable dispatch), so a 100-line document stays instant.
 */
export const LineRow = memo(function LineRow({ line, index, amount, kind, error, canRemove, autoFocus, pricing, dispatch }: Props) {
  const base = `line-${line.key}`;
  const n = index + 1;
  const [picking, setPicking] = useState(false);
  const uncounted = kind === 'needsDescription';
  return (
    <li className={`calc-line${uncounted ? ' calc-line--uncounted' : ''}${error ? ' calc-line--error' : ''}`}>
      {/* A form per row (laid out as if it were not there): the browser's autofill looks over a
          changed field's form as you type, and fields outside any form all count as one form —
          on a 50-line document that was 150 fields read on every keystroke. Nothing submits it. */}
      <form className="calc-line__form" noValidate onSubmit={preventSubmit}>
        <div className="calc-line__field calc-line__field--description">
          <label htmlFor={`${base}-description`} className="field__label">
            <span className="visually-hidden">Line {n} </span>Description
          </label>
          <input
            id={`${base}-description`}
            className="input"
            type="text"
            required
            autoFocus={autoFocus}
            autoCapitalize="sentences"
            enterKeyHint="next"
            maxLength={500}
            placeholder="e.g. Labour, materials, call-out"
            aria-invalid={error ? true : undefined}
            aria-describedby={uncounted ? `${base}-note` : undefined}
            value={line.description}
            onChange={(e) => dispatch({ type: 'editLine', key: line.key, field: 'description', value: e.target.value })}
          />
          {uncounted && (
            <p id={`${base}-note`} className={error ? 'field__error' : 'field__hint'} role={error ? 'alert' : undefined}>
              {error ?? 'Not in the totals until it has a description'}
            </p>
          )}
        </div>
        <div className="calc-line__field calc-line__field--qty">
          <label htmlFor={`${base}-qty`} className="field__label">
            <span className="visually-hidden">Line {n} </span>Qty
          </label>
          <NumberInput id={`${base}-qty`} line={line} field="qty" enterKeyHint="next" dispatch={dispatch} />
        </div>
        <div className="calc-line__field calc-line__field--price">
          <label htmlFor={`${base}-price`} className="field__label">
            <span className="visually-hidden">Line {n} </span>Unit price
          </label>
          <div className="input-affix">
            <span className="input-affix__prefix" aria-hidden="true">
              $
            </span>
            <NumberInput id={`${base}-price`} line={line} field="unit_price" enterKeyHint="next" dispatch={dispatch} />
          </div>
        </div>
        <div className="calc-line__field calc-line__field--cost">
          <label htmlFor={`${base}-cost`} className="field__label">
            <span className="visually-hidden">Line {n} </span>Cost (excl. GST)
          </label>
          <div className="input-affix">
            <span className="input-affix__prefix" aria-hidden="true">
              $
            </span>
            <NumberInput id={`${base}-cost`} line={line} field="cost" enterKeyHint="done" dispatch={dispatch} />
          </div>
        </div>
        <div className="calc-line__field calc-line__field--category">
          <label htmlFor={`${base}-category`} className="field__label">
            <span className="visually-hidden">Line {n} </span>Category
          </label>
          <select
            id={`${base}-category`}
            className="input"
            value={line.category ?? NEW_LINE_CATEGORY}
            onChange={(e) => dispatch({ type: 'editLine', key: line.key, field: 'category', value: e.target.value })}
          >
            {DEFAULT_COST_CATEGORIES.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
            {line.category !== undefined && !DEFAULT_COST_CATEGORIES.some((c) => c.id === line.category) && <option value={line.category}>{line.category}</option>}
          </select>
        </div>
        <div className="calc-line__amount">
          <span className="calc-line__amount-label">
            <span className="visually-hidden">Line {n} </span>Amount
          </span>
          <output className="calc-line__amount-value" htmlFor={`${base}-qty ${base}-price`}>
            {amount}
          </output>
        </div>
        <button type="button" className="calc-line__remove calc-line__pick" aria-expanded={picking} onClick={() => setPicking((p) => !p)}>
          Price book<span className="visually-hidden"> for line {n}</span>
        </button>
        {canRemove && (
          <button type="button" className="calc-line__remove" onClick={() => dispatch({ type: 'removeLine', key: line.key })}>
            Remove<span className="visually-hidden"> line {n}</span>
          </button>
        )}
      </form>
      {picking && (
        <Suspense fallback={<p className="field__hint">Opening your price book…</p>}>
          <PriceBookPicker
            lineLabel={`Line ${n}`}
            pricing={pricing}
            onClose={() => setPicking(false)}
            onPick={(picked) => {
              dispatch({ type: 'fillLine', key: line.key, line: picked });
              setPicking(false);
            }}
          />
        </Suspense>
      )}
    </li>
  );
});
