import { memo, type Dispatch, type FormEvent } from 'react';
import type { CalculatorAction, LineDraft } from './calculatorModel.ts';

interface Props {
  line: LineDraft;
  /** 0-based position, for the labels ('Line 2'). */
  index: number;
  /** qty × unit price as NZD text, from the domain's line totals. */
  amount: string;
  canRemove: boolean;
  autoFocus: boolean;
  dispatch: Dispatch<CalculatorAction>;
}

const preventSubmit = (e: FormEvent) => e.preventDefault();

/**
 * One line item. Memoised: typing in one row re-renders that row only (the others get the same
 * line object, amount text and the stable dispatch), so a 100-line document stays instant.
 */
export const LineRow = memo(function LineRow({ line, index, amount, canRemove, autoFocus, dispatch }: Props) {
  const base = `line-${line.key}`;
  const n = index + 1;
  return (
    <li className="calc-line">
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
            value={line.description}
            onChange={(e) => dispatch({ type: 'editLine', key: line.key, field: 'description', value: e.target.value })}
          />
        </div>
        <div className="calc-line__field calc-line__field--qty">
          <label htmlFor={`${base}-qty`} className="field__label">
            <span className="visually-hidden">Line {n} </span>Qty
          </label>
          <input
            id={`${base}-qty`}
            className="input input--number"
            type="number"
            inputMode="decimal"
            required
            min={0}
            step={0.01}
            enterKeyHint="next"
            value={line.qty}
            onChange={(e) => dispatch({ type: 'editLine', key: line.key, field: 'qty', value: e.target.value })}
            onBlur={() => dispatch({ type: 'settleNumber', key: line.key, field: 'qty' })}
          />
        </div>
        <div className="calc-line__field calc-line__field--price">
          <label htmlFor={`${base}-price`} className="field__label">
            <span className="visually-hidden">Line {n} </span>Unit price
          </label>
          <div className="input-affix">
            <span className="input-affix__prefix" aria-hidden="true">
              $
            </span>
            <input
              id={`${base}-price`}
              className="input input--number"
              type="number"
              inputMode="decimal"
              required
              min={0}
              step={0.01}
              enterKeyHint="done"
              value={line.unit_price}
              onChange={(e) => dispatch({ type: 'editLine', key: line.key, field: 'unit_price', value: e.target.value })}
              onBlur={() => dispatch({ type: 'settleNumber', key: line.key, field: 'unit_price' })}
            />
          </div>
        </div>
        <div className="calc-line__amount">
          <span className="calc-line__amount-label">
            <span className="visually-hidden">Line {n} </span>Amount
          </span>
          <output className="calc-line__amount-value" htmlFor={`${base}-qty ${base}-price`}>
            {amount}
          </output>
        </div>
        {canRemove && (
          <button type="button" className="calc-line__remove" onClick={() => dispatch({ type: 'removeLine', key: line.key })}>
            Remove<span className="visually-hidden"> line {n}</span>
          </button>
        )}
      </form>
    </li>
  );
});
