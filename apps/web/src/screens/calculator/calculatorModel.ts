/**
 * The calculator's state and arithmetic. Pure: a reducer
 * over the rows as typed, and the figures from @tradie/domain. Inputs keep the text the person
 * typed (so '1.' or '' can be on the way to a number); every figure reads it through
 * `numericText`, where empty or invalid input becomes 0.
 */
import {
  applyGstSwitch,
  DEFAULT_COST_CATEGORIES,
  DEFAULT_MARGIN_BASIS,
  DEFAULT_MARGIN_PERCENT,
  documentProfit,
  documentTotals,
  GST_RATE,
  isLowMargin,
  labourLine,
  MARGIN_BASIS_LABELS,
  parseDecimalInput,
  parseMarginInput,
  priceFromCost,
  type DocumentProfit,
  type DocumentTotals,
  type GstRounding,
  type MarginBasis,
  type PricingSettings,
} from '@tradie/domain';
import type { Template, TemplateLineItem, TemplateType } from '../../templates/templateStore.ts';

export type DocumentType = TemplateType;

export interface LineDraft {
  /** A stable React key, never sent. */
  key: number;
  description: string;
  qty: string;
  unit_price: string;
  /**
   * A line of a draft opened for editing keeps its own GST: the price may include it, and a
   * zero-rated line may sit among 15 % ones. Absent on a new row (GST on top, the switch's rate).
   */
  tax_included?: boolean;
  /** The line's own rate while the GST switch is left alone; changing the switch drops it. */
  tax_rate?: string;
  /** What one unit costs the business excl. GST, as typed; empty or absent: cost not recorded (never $0). */
  cost?: string;
  /** The line's category ('materials' on a new row). */
  category?: string;
  /** The price book item the row was picked from: saved with the line, so the quote can say when the book's price moves. */
  price_book_item_id?: string;
}

/** A new row's category. */
export const NEW_LINE_CATEGORY = 'materials';

export interface CalculatorState {
  type: DocumentType;
  lines: LineDraft[];
  includeGst: boolean;
  /** The margin input as typed; the figure is parseMarginInput of it. */
  marginText: string;
  /** Markup on cost or margin on price: the account's choice, remembered on the server. */
  marginBasis: MarginBasis;
  /** The business's pricing from Settings (each category's percentage, the labour rates); null until loaded. */
  pricing: Pick<PricingSettings, 'categories' | 'labour'> | null;
  /**
   * The percentage was typed (or came with a template) for this job: 'Price from cost' then prices
   * every category at it. Untouched, each line is priced at its category's percentage from Settings.
   */
  marginTouched: boolean;
  nextKey: number;
}

export type LineField = 'description' | 'qty' | 'unit_price' | 'cost' | 'category';

export type CalculatorAction =
  | { type: 'setType'; value: DocumentType }
  | { type: 'addLine' }
  | { type: 'removeLine'; key: number }
  | { type: 'editLine'; key: number; field: LineField; value: string }
  /** On leaving a number field: empty or invalid input becomes 0 on screen too. */
  | { type: 'settleNumber'; key: number; field: 'qty' | 'unit_price' | 'cost' }
  | { type: 'setIncludeGst'; value: boolean }
  | { type: 'setMargin'; text: string }
  | { type: 'settleMargin' }
  | { type: 'setMarginBasis'; value: MarginBasis }
  /** 'Price from cost': each row with a cost gets its sell price from it; its cost and every row without one stay as typed. */
  | { type: 'priceFromCost' }
  | { type: 'loadTemplate'; template: Template }
  /** 'Carry on': the lines, type, GST switch and percentage of a draft kept on this device (unsavedDraft.ts). */
  | { type: 'resume'; draft: Pick<CalculatorState, 'type' | 'lines' | 'includeGst' | 'marginText' | 'marginTouched'> }
  /** The business's pricing from Settings arrived (or changed). */
  | { type: 'setPricing'; pricing: Pick<PricingSettings, 'categories' | 'labour'> }
  /** A labour line: an hour at the charge-out rate, costing the cost rate (labourLine); needs the rates. */
  | { type: 'addLabour' }
  /** A line picked from the price book (the picker works the line out with the domain's lineFromPriceBookItem). */
  | { type: 'fillLine'; key: number; line: PickedLine };

/** What the price book picker fills a row with: the domain's line, its numbers as text. */
export interface PickedLine {
  description: string;
  qty: string;
  unit_price: string;
  tax_included: boolean;
  tax_rate: string;
  /** The item's cost excl. GST (kept on the line, so its profit shows); null: not recorded. */
  cost?: string | null;
  /** The line's cost category. */
  category?: string;
  /** The price book item it came from. */
  price_book_item_id?: string;
}

/** A new row: qty 1, unit price 0. */
const newLine = (key: number): LineDraft => ({ key, description: '', qty: '1', unit_price: '0', cost: '', category: NEW_LINE_CATEGORY });

export function initialCalculatorState(): CalculatorState {
  return { type: 'quote', lines: [newLine(1)], includeGst: true, marginText: String(DEFAULT_MARGIN_PERCENT), marginBasis: DEFAULT_MARGIN_BASIS, pricing: null, marginTouched: false, nextKey: 2 };
}

/** A typed quantity or price as an exact decimal string; empty, invalid or negative input is '0'. */
export function numericText(text: string): string {
  const d = parseDecimalInput(text);
  if (!d || d.isNegative()) return '0';
  return d.toFixed();
}

/** The margin figure typed: whole percent in the basis's range; empty or invalid is 0. */
export const marginOf = (state: Pick<CalculatorState, 'marginText' | 'marginBasis'>): number => parseMarginInput(state.marginText, state.marginBasis);

/** A stored number back to the text an input shows (exact for the few decimals a line has). */
const textOfNumber = (n: number): string => (Number.isFinite(n) && n >= 0 ? String(n) : '0');

function linesFromTemplate(items: readonly TemplateLineItem[], firstKey: number): LineDraft[] {
  const lines = items.map((l, i) => ({
    key: firstKey + i,
    description: l.description,
    qty: textOfNumber(l.qty),
    unit_price: textOfNumber(l.unit_price),
    cost: l.cost === undefined || l.cost === null ? '' : textOfNumber(l.cost),
    category: l.category ?? NEW_LINE_CATEGORY,
  }));
  return lines.length > 0 ? lines : [newLine(firstKey)];
}

export function calculatorReducer(state: CalculatorState, action: CalculatorAction): CalculatorState {
  switch (action.type) {
    case 'setType':
      return state.type === action.value ? state : { ...state, type: action.value };
    case 'addLine':
      return { ...state, lines: [...state.lines, newLine(state.nextKey)], nextKey: state.nextKey + 1 };
    case 'removeLine':
      // At least one line must remain.
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
          // An empty cost stays empty: cost not recorded, never $0.
          if (action.field === 'cost' && (l.cost ?? '').trim() === '') return l;
          const settled = numericText(l[action.field] ?? '');
          // Keep what was typed when it already is that number ('1.50' stays '1.50').
          return parseDecimalInput(l[action.field] ?? '')?.toFixed() === settled ? l : { ...l, [action.field]: settled };
        }),
      };
    case 'setIncludeGst':
      // The switch then applies to every line alike: a line's own rate goes (its price keeps whether it includes GST).
      return {
        ...state,
        includeGst: action.value,
        lines: state.lines.some((l) => l.tax_rate !== undefined) ? state.lines.map(({ tax_rate: _rate, ...l }) => l) : state.lines,
      };
    case 'setMargin':
      return { ...state, marginText: action.text, marginTouched: true };
    case 'setPricing':
      return { ...state, pricing: action.pricing };
    case 'addLabour': {
      if (!hasLabourRates(state)) return state;
      const l = labourLine('1', state.pricing!.labour, pricingOf(state));
      const row: LineDraft = { key: state.nextKey, description: l.description, qty: l.qty, unit_price: l.unit_price, tax_included: false, cost: l.cost ?? '', category: l.category };
      // A lone empty first row is replaced, as the price book's pick fills it.
      const lines = state.lines.length === 1 && rowKind(state.lines[0]!) === 'empty' ? [row] : [...state.lines, row];
      return { ...state, lines, nextKey: state.nextKey + 1 };
    }
    case 'settleMargin': {
      const m = String(marginOf(state));
      return m === state.marginText ? state : { ...state, marginText: m };
    }
    case 'setMarginBasis': {
      if (state.marginBasis === action.value) return state;
      const next = { ...state, marginBasis: action.value };
      return { ...next, marginText: String(marginOf(next)) };
    }
    case 'priceFromCost': {
      const m = marginOf(state);
      const rows = state.lines.map((l) => ({ ...l, qty: numericText(l.qty), unit_price: numericText(l.unit_price), cost: costText(l), tax_included: l.tax_included ?? false, tax_rate: l.tax_rate ?? GST_RATE }));
      const priced = priceFromCost(rows, pricingOf(state));
      // Only the prices of rows with a cost change; quantities and costs keep what was typed.
      return {
        ...state,
        marginText: String(m),
        lines: state.lines.map((l, i) => (priced.priced.includes(i) ? { ...l, unit_price: priced.lines[i]!.unit_price, tax_included: priced.lines[i]!.tax_included } : l)),
      };
    }
    case 'fillLine': {
      const { description, qty, unit_price, tax_included, tax_rate, cost, category, price_book_item_id } = action.line;
      const filled = (l: LineDraft): LineDraft => ({
        key: l.key, description, qty, unit_price, tax_included, tax_rate, cost: cost ?? '', category: category ?? l.category ?? NEW_LINE_CATEGORY,
        ...(price_book_item_id === undefined ? {} : { price_book_item_id }),
      });
      return { ...state, lines: state.lines.map((l) => (l.key === action.key ? filled(l) : l)) };
    }
    case 'resume': {
      const { type, lines, includeGst, marginText, marginTouched } = action.draft;
      if (lines.length === 0) return state;
      // The business's pricing and basis stay as loaded; new rows get keys after the kept ones.
      return { ...state, type, lines, includeGst, marginText, marginTouched, nextKey: Math.max(state.nextKey, ...lines.map((l) => l.key + 1)) };
    }
    case 'loadTemplate': {
      const t = action.template;
      const lines = linesFromTemplate(t.lineItems, state.nextKey);
      return {
        type: t.type,
        lines,
        includeGst: t.includeGst,
        marginText: String(parseMarginInput(t.profitMarginPercent, state.marginBasis)),
        marginBasis: state.marginBasis,
        pricing: state.pricing,
        // A template keeps the percentage it was saved with.
        marginTouched: true,
        nextKey: state.nextKey + lines.length,
      };
    }
  }
}

/**
 * What each row is to Generate: a line to save; a wholly empty new row (no text, price 0, qty 1 or
 * 0), which is ignored; or a row with a quantity or price but no description, which stops Generate
 * with a field error. The totals and the margin figures count exactly the rows Generate would save.
 */
export type RowKind = 'line' | 'empty' | 'needsDescription';

export function rowKind(l: LineDraft): RowKind {
  if (l.description.trim() !== '') return 'line';
  const qty = numericText(l.qty);
  return numericText(l.unit_price) === '0' && (qty === '1' || qty === '0') ? 'empty' : 'needsDescription';
}

/** The message beside a row with a price or quantity and no description. */
export const DESCRIPTION_NEEDED = 'Add a description for this line';

/** The notice after 'Price from cost'. Costs never change, so pressing it again changes nothing. */
export const pricedFromCostNotice = (percent: number | null, basis: MarginBasis): string =>
  `Priced each line with a cost at ${percent === null ? "its category's" : `${percent}%`} ${MARGIN_BASIS_LABELS[basis].toLowerCase()}. Costs are kept; lines without a cost keep their price. The client sees only the prices.`;

/** A row's cost as exact decimal text, or null when none was typed (cost not recorded). */
export function costText(l: Pick<LineDraft, 'cost'>): string | null {
  if (l.cost === undefined || l.cost.trim() === '') return null;
  return numericText(l.cost);
}

/** Every category at the panel's percentage, on the panel's basis: what 'Price from cost' prices at. */
export const pricingAt = (percent: number, basis: MarginBasis) => ({ basis, categories: DEFAULT_COST_CATEGORIES.map((c) => ({ ...c, percent: String(percent) })) });

/**
 * What 'Price from cost' prices at: each line's category's percentage from Settings, or — once a
 * percentage is typed for this job (or a template brings one), or before Settings load — that one
 * percentage for every category. A labour line is charged out at the Settings' rate when one is set.
 */
export function pricingOf(state: Pick<CalculatorState, 'marginText' | 'marginBasis' | 'pricing' | 'marginTouched'>): PricingSettings {
  const labour = state.pricing?.labour ?? { chargeOutRate: null, costRate: null };
  if (state.pricing && !state.marginTouched) return { basis: state.marginBasis, categories: state.pricing.categories, labour };
  return { ...pricingAt(marginOf(state), state.marginBasis), labour };
}

/** Settings has a charge-out rate or a cost per hour: 'Add labour' can make a labour line. */
/**
 * The categories' own rates from Settings, when they price this job: loaded, no percentage typed for
 * the job, and not all the one percentage the panel shows already (then the panel says '25% markup'
 * as before, and pricing is the same either way).
 */
export function ownCategoryRates(state: Pick<CalculatorState, 'marginText' | 'marginBasis' | 'pricing' | 'marginTouched'>): PricingSettings['categories'] | null {
  if (!state.pricing || state.marginTouched) return null;
  const percent = marginOf(state);
  return state.pricing.categories.every((c) => Number(c.percent) === percent) ? null : state.pricing.categories;
}

export const hasLabourRates = (state: Pick<CalculatorState, 'pricing'>): boolean =>
  state.pricing !== null && (state.pricing.labour.chargeOutRate !== null || state.pricing.labour.costRate !== null);

/** The rows Generate saves, in order. */
export const savedRows = (lines: readonly LineDraft[]): LineDraft[] => lines.filter((l) => rowKind(l) === 'line');

/** The lines as the domain prices them: the rows that are saved, GST on top at 15% unless the GST switch is off (a draft's line keeps its own GST). */
export function pricedLines(state: Pick<CalculatorState, 'lines' | 'includeGst'>) {
  return applyGstSwitch(
    savedRows(state.lines).map((l) => ({
      description: l.description,
      qty: numericText(l.qty),
      unit_price: numericText(l.unit_price),
      tax_included: l.tax_included ?? false,
      tax_rate: l.tax_rate ?? GST_RATE,
      cost: costText(l),
      category: l.category ?? NEW_LINE_CATEGORY,
    })),
    state.includeGst,
  );
}

export interface CalculatorFigures {
  totals: DocumentTotals;
  /** The panel's percentage, and the rows 'Price from cost' could not land on the exact cent (decision 0006): said before pressing it, never silently. */
  margin: { percent: number; basis: MarginBasis; lowMargin: boolean; inexactLines: number[] };
  /** Cost, sell and gross profit of the saved rows, and per category: the same function as the quote and invoice screens. */
  profit: DocumentProfit;
  /** Each row's amount (qty × price to the cent), counted or not, for the row itself to show. */
  rowAmounts: Map<number, bigint>;
}

/** Subtotal, GST and total from documentTotals; cost, sell and gross profit from documentProfit — of the saved rows. */
export function calculatorFigures(state: CalculatorState, rounding?: GstRounding): CalculatorFigures {
  const lines = pricedLines(state);
  const totals = documentTotals(lines, rounding);
  const percent = marginOf(state);
  const rowAmounts = new Map(state.lines.map((l) => [l.key, documentTotals([{ qty: numericText(l.qty), unit_price: numericText(l.unit_price) }]).lines[0]!.amountCents]));
  const inexactLines = priceFromCost(lines, pricingOf(state)).inexact;
  return { totals, margin: { percent, basis: state.marginBasis, lowMargin: isLowMargin(percent), inexactLines }, profit: documentProfit(lines, rounding ?? totals.rounding), rowAmounts };
}

export interface LineItemToSend {
  description: string;
  qty: string;
  unit_price: string;
  tax_included: boolean;
  tax_rate: string;
  cost: string | null;
  category: string;
  price_book_item_id?: string;
}

/**
 * The create payload's lines (empty rows left out, the GST switch applied, numbers as exact decimal
 * text) — or the first row that needs a description, which Generate refuses to save.
 */
export function lineItemsToSend(state: Pick<CalculatorState, 'lines' | 'includeGst'>): { ok: true; lines: LineItemToSend[] } | { ok: false; key: number; message: string } {
  const missing = state.lines.find((l) => rowKind(l) === 'needsDescription');
  if (missing) return { ok: false, key: missing.key, message: DESCRIPTION_NEEDED };
  return {
    ok: true,
    lines: savedRows(state.lines).map((l) => ({
      description: l.description,
      qty: numericText(l.qty),
      unit_price: numericText(l.unit_price),
      tax_included: l.tax_included ?? false,
      tax_rate: state.includeGst ? (l.tax_rate ?? GST_RATE) : '0',
      cost: costText(l),
      category: l.category ?? NEW_LINE_CATEGORY,
      ...(l.price_book_item_id === undefined ? {} : { price_book_item_id: l.price_book_item_id }),
    })),
  };
}

/** The template's lineItems (TemplateLineItem fields). */
export function templateLineItems(state: Pick<CalculatorState, 'lines' | 'includeGst'>): TemplateLineItem[] {
  return state.lines.map((l) => ({
    description: l.description,
    qty: Number(numericText(l.qty)),
    unit_price: Number(numericText(l.unit_price)),
    tax_included: l.tax_included ?? false,
    tax_rate: state.includeGst ? Number(l.tax_rate ?? GST_RATE) : 0,
    cost: costText(l) === null ? null : Number(costText(l)),
    category: l.category ?? NEW_LINE_CATEGORY,
  }));
}
