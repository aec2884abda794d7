/**
 * Templates: kept only in the browser, never on the server.
 *
 * - The list lives under the storage key 'invoiceTemplates' as JSON.
 * - The template chosen on the Templates tab is handed to the calculator under 'loadTemplate' and
 *   removed once applied.
 *
 * Exactly these fields: id (the creation timestamp), name, type, lineItems,
 * profitMarginPercent, includeGst, clientData ({name, email, phone} or null), createdAt (ISO).
 *
 * Storage is passed in (a port): the browser gives window.localStorage, tests a Map.
 */

export const TEMPLATES_KEY = 'invoiceTemplates';
export const LOAD_TEMPLATE_KEY = 'loadTemplate';

export type TemplateType = 'quote' | 'invoice';

/** A line as the calculator keeps it. */
export interface TemplateLineItem {
  description: string;
  qty: number;
  unit_price: number;
  tax_included: boolean;
  tax_rate: number;
}

export interface TemplateClientData {
  name: string;
  email: string;
  phone: string;
}

export interface Template {
  id: number;
  name: string;
  type: TemplateType;
  lineItems: TemplateLineItem[];
  profitMarginPercent: number;
  includeGst: boolean;
  clientData: TemplateClientData | null;
  createdAt: string;
}

export type NewTemplate = Omit<Template, 'id' | 'createdAt'>;

export type TemplateStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A number kept as a JSON number or numeric text (older saves); anything else is 0. */
function numberOf(v: unknown, fallback: number): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : fallback;
}

const textOf = (v: unknown): string => (typeof v === 'string' ? v : '');

function lineOf(v: unknown): TemplateLineItem | null {
  if (!isObject(v)) return null;
  return {
    description: textOf(v.description),
    qty: numberOf(v.qty, 1),
    unit_price: numberOf(v.unit_price, 0),
    tax_included: v.tax_included === true,
    tax_rate: numberOf(v.tax_rate, 0.15),
  };
}

/** Reads one stored template leniently; null when it is not a template at all. */
export function templateOf(v: unknown): Template | null {
  if (!isObject(v)) return null;
  const id = numberOf(v.id, NaN);
  if (!Number.isFinite(id) || typeof v.name !== 'string') return null;
  const lines = Array.isArray(v.lineItems) ? v.lineItems.map(lineOf).filter((l): l is TemplateLineItem => l !== null) : [];
  const client = isObject(v.clientData) ? { name: textOf(v.clientData.name), email: textOf(v.clientData.email), phone: textOf(v.clientData.phone) } : null;
  return {
    id,
    name: v.name,
    type: v.type === 'invoice' ? 'invoice' : 'quote',
    lineItems: lines,
    profitMarginPercent: numberOf(v.profitMarginPercent, 0),
    includeGst: v.includeGst !== false,
    clientData: client,
    createdAt: textOf(v.createdAt),
  };
}

function parseList(raw: string | null): Template[] {
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.map(templateOf).filter((t): t is Template => t !== null) : [];
  } catch {
    return [];
  }
}

export interface TemplateStore {
  /** Every saved template, in the order saved. */
  list(): Template[];
  /** Saves a new template; its id is the creation timestamp (made unique within the list). */
  save(template: NewTemplate, now: Date): Template;
  /** Removes a template by id; returns what is left. */
  remove(id: number): Template[];
  /** The Templates tab hands a template to the calculator. */
  handOver(template: Template): void;
  /** The handed-over template, if any, without removing it. */
  peekHandOver(): Template | null;
  /** Clears the hand-over (after the calculator applied it). */
  clearHandOver(): void;
  /** Listens for changes made through this store (and, in the browser, by other tabs). */
  subscribe(listener: () => void): () => void;
  /** The raw stored list text: a cheap snapshot key for useSyncExternalStore. */
  version(): string | null;
}

export function createTemplateStore(storage: TemplateStorage): TemplateStore {
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const l of listeners) l();
  };
  const write = (list: Template[]) => {
    storage.setItem(TEMPLATES_KEY, JSON.stringify(list));
    notify();
  };

  return {
    list: () => parseList(storage.getItem(TEMPLATES_KEY)),
    save(template, now) {
      const list = parseList(storage.getItem(TEMPLATES_KEY));
      let id = now.getTime();
      const taken = new Set(list.map((t) => t.id));
      while (taken.has(id)) id += 1;
      const saved: Template = {
        id,
        name: template.name,
        type: template.type,
        lineItems: template.lineItems,
        profitMarginPercent: template.profitMarginPercent,
        includeGst: template.includeGst,
        clientData: template.clientData,
        createdAt: now.toISOString(),
      };
      write([...list, saved]);
      return saved;
    },
    remove(id) {
      const left = parseList(storage.getItem(TEMPLATES_KEY)).filter((t) => t.id !== id);
      write(left);
      return left;
    },
    handOver(template) {
      storage.setItem(LOAD_TEMPLATE_KEY, JSON.stringify(template));
    },
    peekHandOver() {
      const raw = storage.getItem(LOAD_TEMPLATE_KEY);
      if (!raw) return null;
      try {
        return templateOf(JSON.parse(raw));
      } catch {
        return null;
      }
    },
    clearHandOver() {
      storage.removeItem(LOAD_TEMPLATE_KEY);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    version: () => storage.getItem(TEMPLATES_KEY),
  };
}
