/**
 * Templates: kept by the account on the server (/api/v1/templates, docs/api/templates.md), so every
 * browser the user signs in on sees the same ones. This module is the plain logic, on two ports: the
 * api client and localStorage. The screens reach it through TanStack Query (queries.ts) and the hooks
 * in useTemplates.ts.
 *
 * - The server's list is copied to localStorage under 'invoiceTemplates:{userId}': a per-user
 *   offline copy, shown while the server is out of reach. Signing out removes it
 *   (clearTemplateCache).
 * - Before templates moved to the server a browser kept them under 'invoiceTemplates' (no user).
 *   Those are uploaded once, on the first sign-in that finds them, when the server does not already
 *   hold the same template; then the old key is removed. So an existing user keeps their templates.
 * - The template chosen on the Templates tab is handed to the calculator under 'loadTemplate' and
 *   removed once applied.
 *
 * A template's fields: id (the server's), name, type, lineItems, profitMarginPercent, includeGst,
 * clientData ({name, email, phone} or null), notes, createdAt (ISO) and version.
 */
import type { TemplateInput, TemplateList, TemplateRecord } from '@tradie/contracts';
import type { ApiClient } from '../api/client.ts';

/**
 * The server's bounds (TEMPLATE_LIMITS in the contracts; templateStore.spec.ts checks they agree).
 * Written out here so the screens that use templates do not download the contracts' schemas.
 */
export const TEMPLATE_LIMITS = { name: 100, lines: 200, perAccount: 100, description: 500, notes: 5000, clientField: 200 } as const;

/** Where browsers kept templates before the server did: read once, uploaded, removed. */
export const LEGACY_TEMPLATES_KEY = 'invoiceTemplates';
/** The per-user offline copy of the server's list. */
export const templatesCacheKey = (userId: string): string => `${LEGACY_TEMPLATES_KEY}:${userId}`;
export const LOAD_TEMPLATE_KEY = 'loadTemplate';

export type TemplateType = 'quote' | 'invoice';

/** A line as the calculator keeps it. */
export interface TemplateLineItem {
  description: string;
  qty: number;
  unit_price: number;
  tax_included: boolean;
  tax_rate: number;
  /** What one unit costs, excl. GST; null or absent: cost not recorded. */
  cost?: number | null;
  category?: string;
}

export interface TemplateClientData {
  name: string;
  email: string;
  phone: string;
}

export interface Template {
  id: string;
  name: string;
  type: TemplateType;
  lineItems: TemplateLineItem[];
  profitMarginPercent: number;
  includeGst: boolean;
  clientData: TemplateClientData | null;
  notes: string;
  createdAt: string;
  /** The server's version (0 for one read from an old browser copy). */
  version: number;
}

/** What Save Template sends. */
export type NewTemplate = Omit<Template, 'id' | 'createdAt' | 'version' | 'notes'> & { notes?: string };

export type TemplateStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
export type TemplateApi = Pick<ApiClient, 'get' | 'post' | 'del'>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A number kept as a JSON number or numeric text (older saves); anything else is the fallback. */
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
    cost: typeof v.cost === 'number' && Number.isFinite(v.cost) && v.cost >= 0 ? v.cost : null,
    category: typeof v.category === 'string' && /^[a-z0-9][a-z0-9-]{0,39}$/.test(v.category) ? v.category : 'other',
  };
}

/** Reads one stored template leniently (an old browser copy had numeric ids); null when it is not a template at all. */
export function templateOf(v: unknown): Template | null {
  if (!isObject(v)) return null;
  const id = typeof v.id === 'string' && v.id !== '' ? v.id : typeof v.id === 'number' && Number.isFinite(v.id) ? String(v.id) : null;
  if (id === null || typeof v.name !== 'string') return null;
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
    notes: textOf(v.notes),
    createdAt: textOf(v.createdAt),
    version: numberOf(v.version, 0),
  };
}

/** A stored list, leniently: damaged text is an empty list, entries that are not templates are skipped. */
export function parseTemplateList(raw: string | null): Template[] {
  if (!raw) return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.map(templateOf).filter((t): t is Template => t !== null) : [];
  } catch {
    return [];
  }
}

// ---- the server's shape ----------------------------------------------------------------------------

export function templateFromRecord(r: TemplateRecord): Template {
  return {
    id: r.id,
    name: r.name,
    type: r.type,
    lineItems: r.line_items,
    profitMarginPercent: r.profit_margin_percent,
    includeGst: r.include_gst,
    clientData: r.client,
    notes: r.notes,
    createdAt: r.created_at,
    version: r.version,
  };
}

const clamp = (n: number, limit: number): number => Math.max(-limit, Math.min(limit, n));

/**
 * The body POST /templates takes. Kept within the server's bounds (TEMPLATE_LIMITS), so a template an
 * old browser copy holds — saved before there were bounds — still uploads rather than being refused.
 */
export function templateInputOf(t: NewTemplate): TemplateInput {
  const cut = (s: string, n: number) => s.slice(0, n);
  return {
    name: cut(t.name.trim(), TEMPLATE_LIMITS.name).trim() || 'Template',
    type: t.type,
    line_items: t.lineItems.slice(0, TEMPLATE_LIMITS.lines).map((l) => ({
      description: cut(l.description, TEMPLATE_LIMITS.description),
      qty: clamp(l.qty, 1_000_000),
      unit_price: clamp(l.unit_price, 100_000_000),
      tax_included: l.tax_included,
      tax_rate: Math.max(0, Math.min(1, l.tax_rate)),
      cost: l.cost === undefined || l.cost === null ? null : clamp(l.cost, 100_000_000),
      category: l.category ?? 'other',
    })),
    profit_margin_percent: clamp(t.profitMarginPercent, 999),
    include_gst: t.includeGst,
    client: t.clientData
      ? { name: cut(t.clientData.name, TEMPLATE_LIMITS.clientField), email: cut(t.clientData.email, TEMPLATE_LIMITS.clientField), phone: cut(t.clientData.phone, TEMPLATE_LIMITS.clientField) }
      : null,
    notes: cut(t.notes ?? '', TEMPLATE_LIMITS.notes),
  };
}

/** What makes two templates the same for the upload of an old browser copy: everything but id, dates and version. */
const sameContent = (t: NewTemplate): string => JSON.stringify(templateInputOf(t));

// ---- the per-user offline copy ---------------------------------------------------------------------

export interface TemplateCache {
  /** The copy of the server's list, or null when this browser has none for the user. */
  read(): Template[] | null;
  write(list: readonly Template[]): void;
}

export function templateCache(storage: TemplateStorage, userId: string): TemplateCache {
  const key = templatesCacheKey(userId);
  return {
    read: () => {
      const raw = storage.getItem(key);
      return raw === null ? null : parseTemplateList(raw);
    },
    write: (list) => {
      try {
        storage.setItem(key, JSON.stringify(list));
      } catch {
        // Storage full or refused (private mode): the server still has them; only offline reading suffers.
      }
    },
  };
}

/**
 * On sign-out: the user's offline copy and any template handed to the calculator go, so the next
 * person on this browser sees none of them. Without a user id, every per-user copy goes.
 */
export function clearTemplateCache(storage: TemplateStorage & { length?: number; key?: (i: number) => string | null }, userId: string | null): void {
  storage.removeItem(LOAD_TEMPLATE_KEY);
  if (userId) {
    storage.removeItem(templatesCacheKey(userId));
    return;
  }
  if (typeof storage.length !== 'number' || !storage.key) return;
  const keys: string[] = [];
  for (let i = 0; i < storage.length; i++) {
    const k = storage.key(i);
    if (k?.startsWith(`${LEGACY_TEMPLATES_KEY}:`)) keys.push(k);
  }
  for (const k of keys) storage.removeItem(k);
}

// ---- talking to the server ---------------------------------------------------------------------------

/** True for a failure where the server never answered (offline, timed out): the offline copy may stand in. */
export const isUnreachable = (e: unknown): boolean => {
  const status = (e as { status?: unknown } | null)?.status;
  return status === 0 || (typeof status === 'number' && status >= 500);
};

/**
 * Uploads the templates an old browser copy holds (under 'invoiceTemplates'), skipping any the server
 * already has the same, then removes the old copy. A template the server refuses (4xx, e.g. the account
 * is full) is skipped; when the server cannot be reached the old copy is kept for the next time.
 * Answers the server's list after it.
 */
export async function uploadLegacyTemplates(api: TemplateApi, storage: TemplateStorage, onServer: readonly Template[]): Promise<Template[]> {
  const raw = storage.getItem(LEGACY_TEMPLATES_KEY);
  if (raw === null) return [...onServer];
  const list = [...onServer];
  const known = new Set(onServer.map(sameContent));
  for (const old of parseTemplateList(raw)) {
    const content = sameContent(old);
    if (known.has(content)) continue;
    try {
      list.push(templateFromRecord(await api.post<TemplateRecord>('/templates', templateInputOf(old))));
      known.add(content);
    } catch (e) {
      if (isUnreachable(e)) return list; // the old copy stays: the rest goes up next time
    }
  }
  storage.removeItem(LEGACY_TEMPLATES_KEY);
  return list;
}

/**
 * The user's templates: the server's list (after uploading an old browser copy, once), written to the
 * user's offline copy. When the server cannot be reached, the offline copy if there is one.
 */
export async function fetchTemplates(api: TemplateApi, storage: TemplateStorage, userId: string, signal?: AbortSignal): Promise<Template[]> {
  const cache = templateCache(storage, userId);
  let items: TemplateRecord[];
  try {
    items = (await api.get<TemplateList>('/templates', signal ? { signal } : {})).items;
  } catch (e) {
    const offline = isUnreachable(e) ? cache.read() : null;
    if (offline) return offline;
    throw e;
  }
  const list = await uploadLegacyTemplates(api, storage, items.map(templateFromRecord));
  cache.write(list);
  return list;
}

/** POST /templates; the saved template. */
export async function createTemplate(api: TemplateApi, template: NewTemplate): Promise<Template> {
  return templateFromRecord(await api.post<TemplateRecord>('/templates', templateInputOf(template)));
}

/** DELETE /templates/{id}; one already gone counts as deleted. */
export async function deleteTemplate(api: TemplateApi, id: string): Promise<void> {
  try {
    await api.del(`/templates/${encodeURIComponent(id)}`);
  } catch (e) {
    if ((e as { status?: unknown } | null)?.status !== 404) throw e;
  }
}

// ---- the hand-over to the calculator ---------------------------------------------------------------

export interface TemplateHandOver {
  /** The Templates tab hands a template to the calculator. */
  handOver(template: Template): void;
  /** The handed-over template, if any, without removing it. */
  peekHandOver(): Template | null;
  /** Clears the hand-over (after the calculator applied it). */
  clearHandOver(): void;
}

export function templateHandOver(storage: TemplateStorage): TemplateHandOver {
  return {
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
  };
}
