/**
 * The calculator's state and arithmetic (spec §2 Calculator, §5 Calculator, §9). Pure: a reducer
 * over the rows as typed, and the figures from @tradie/domain. Inputs keep the text the person
 * typed (so '1.' or '' can be on the way to a number); every figure reads it through
 * `numericText`, where empty or invalid input becomes 0.
 */
import {
  applyGstSwitch,
  applyMargin,
  DEFAULT_MARGIN_PERCENT,
  documentTotals,
  GST_RATE,
  marginFigures,
  parseDecimalInput,
  parseMarginInput,
  type DocumentTotals,
  type GstRounding,
  type MarginFigures,
} from '@tradie/domain';
import type { Template, TemplateLineItem, TemplateType } from '../../templates/templateStore.ts';

export type DocumentType = TemplateType;

export interface LineDraft {
  /** A stable React key, never sent. */
  key: number;
  description: string;
  qty: string;
  unit_price: string;
}

export interface CalculatorState {
  type: DocumentType;
  lines: LineDraft[];
  includeGst: boolean;
  /** The margin input as typed; the figure is parseMarginInput of it. */
  marginText: string;
  nextKey: number;
}

export type LineField = 'description' | 'qty' | 'unit_price';

export type CalculatorAction =
  | { type: 'setType'; value: DocumentType }
  | { type: 'addLine' }
  | { type: 'removeLine'; key: number }
  | { type: 'editLine'; key: number; field: LineField; value: string }
  /** On leaving a number field: empty or invalid input becomes 0 on screen too. */
  | { type: 'settleNumber'; key: number; field: 'qty' | 'unit_price' }
  | { type: 'setIncludeGst'; value: boolean }
  | { type: 'setMargin'; text: string }
  | { type: 'settleMargin' }
  | { type: 'applyMargin' }
  | { type: 'loadTemplate'; template: Template };

/** A new row: qty 1, unit price 0 (spec §9). */
const newLine = (key: number): LineDraft => ({ key, description: '', qty: '1', unit_price: '0' });

export function initialCalculatorState(): CalculatorState {
  return { type: 'quote', lines: [newLine(1)], includeGst: true, marginText: String(DEFAULT_MARGIN_PERCENT), nextKey: 2 };
}

/** A typed quantity or price as an exact decimal string; empty, invalid or negative input is '0'. */
export function numericText(text: string): string {
  const d = parseDecimalInput(text);
  if (!d || d.isNegative()) return '0';
  return d.toFixed();
}

/** The margin figure typed: 0–100, whole percent; empty or invalid is 0. */
export const marginOf = (state: Pick<CalculatorState, 'marginText'>): number => parseMarginInput(state.marginText);

/** A stored number back to the text an input shows (exact for the few decimals a line has). */
const textOfNumber = (n: number): string => (Number.isFinite(n) && n >= 0 ? String(n) : '0');

function linesFromTemplate(items: readonly TemplateLineItem[], firstKey: number): LineDraft[] {
  const lines = items.map((l, i) => ({ key: firstKey + i, description: l.description, qty: textOfNumber(l.qty), unit_price: textOfNumber(l.unit_price) }));
  return lines.length > 0 ? lines : [newLine(firstKey)];
}

export function calculatorReducer(state: CalculatorState, action: CalculatorAction): CalculatorState {
  switch (action.type) {
    case 'setType':
      return state.type === action.value ? state : { ...state, type: action.value };
    case 'addLine':
      return { ...state, lines: [...state.lines, newLine(state.nextKey)], nextKey: state.nextKey + 1 };
    case 'removeLine':
      // At least one line must remain (spec §5).
      if (state.lines.length <= 1) return state;
      return { ...state, lines: state.lines.filter((l) => l.key !== action.key) };
    case 'editLine':
      return {
        ...state,
        lines: state.lines.map((l) => (l.key === action.key && l[action.field] !== action.value ? { ...l, [action.field]: action.value } : l)),
      };
    case 'settleNumber':
      return {
        ...state,
        lines: state.lines.map((l) => {
          if (l.key !== action.key) return l;
          const settled = numericText(l[action.field]);
          // Keep what was typed when it already is that number ('1.50' stays '1.50').
          return parseDecimalInput(l[action.field])?.toFixed() === settled ? l : { ...l, [action.field]: settled };
        }),
      };
    case 'setIncludeGst':
      return { ...state, includeGst: action.value };
    case 'setMargin':
      return { ...state, marginText: action.text };
    case 'settleMargin': {
      const m = String(marginOf(state));
      return m === state.marginText ? state : { ...state, marginText: m };
    }
    case 'applyMargin': {
      const m = marginOf(state);
      const priced = applyMargin(
        state.lines.map((l) => ({ ...l, unit_price: numericText(l.unit_price) })),
        m,
      );
      return { ...state, marginText: String(m), lines: priced };
    }
    case 'loadTemplate': {
      const t = action.template;
      const lines = linesFromTemplate(t.lineItems, state.nextKey);
      return {
        type: t.type,
        lines,
        includeGst: t.includeGst,
        marginText: String(parseMarginInput(t.profitMarginPercent)),
        nextKey: state.nextKey + lines.length,
      };
    }
  }
}

/** The lines as the domain prices them: GST-exclusive, 15% unless the GST switch is off. */
export function pricedLines(state: Pick<CalculatorState, 'lines' | 'includeGst'>) {
  return applyGstSwitch(
    state.lines.map((l) => ({ qty: numericText(l.qty), unit_price: numericText(l.unit_price), tax_included: false, tax_rate: GST_RATE })),
    state.includeGst,
  );
}

export interface CalculatorFigures {
  totals: DocumentTotals;
  margin: MarginFigures & { percent: number };
}

/** Subtotal, GST and total from documentTotals; Your Costs, Profit and Charge Client from marginFigures. */
export function calculatorFigures(state: CalculatorState, rounding?: GstRounding): CalculatorFigures {
  const totals = documentTotals(pricedLines(state), rounding);
  const percent = marginOf(state);
  return { totals, margin: { ...marginFigures(totals.subtotalCents, percent), percent } };
}

/** The create payload's lines: blank descriptions dropped, GST switch applied (spec §4 Document creation). */
export function lineItemsToSend(state: Pick<CalculatorState, 'lines' | 'includeGst'>) {
  return state.lines
    .filter((l) => l.description.trim() !== '')
    .map((l) => ({
      description: l.description,
      qty: Number(numericText(l.qty)),
      unit_price: Number(numericText(l.unit_price)),
      tax_included: false,
      tax_rate: state.includeGst ? Number(GST_RATE) : 0,
    }));
}

/** The template's lineItems (spec §3 Line item fields). */
export function templateLineItems(state: Pick<CalculatorState, 'lines' | 'includeGst'>): TemplateLineItem[] {
  return state.lines.map((l) => ({
    description: l.description,
    qty: Number(numericText(l.qty)),
    unit_price: Number(numericText(l.unit_price)),
    tax_included: false,
    tax_rate: state.includeGst ? Number(GST_RATE) : 0,
  }));
}
