// Check digits for NZ identifiers. A failed check is a warning, never a block:
// the tradie knows their client better than our algorithm does.

export type IdCheck = { valid: true; compact: string } | { valid: false; reason: 'format' | 'length' | 'range' | 'prefix' | 'checksum' };

const compactOf = (input: string): string => input.replace(/[\s-]/g, '');

const IRD_PRIMARY = [3, 2, 7, 6, 5, 4, 3, 2];
const IRD_SECONDARY = [7, 4, 3, 2, 5, 2, 7, 6];
/** IRD's specification bounds issued numbers; kept configurable. */
export const IRD_RANGE = { min: 10_000_000, max: 150_000_000 };

function mod11CheckDigit(base8: string, weights: number[]): number {
  let total = 0;
  for (let i = 0; i < 8; i++) total += Number(base8[i]) * (weights[i] ?? 0);
  const r = total % 11;
  return r === 0 ? 0 : 11 - r;
}

/** IRD number, which is also a GST number: 8 or 9 digits, modulus 11 with two weight sets. */
export function checkIrdNumber(input: string, range = IRD_RANGE): IdCheck {
  let s = compactOf(input.trim());
  if (/^NZ/i.test(s)) s = s.slice(2);
  if (!/^\d+$/.test(s)) return { valid: false, reason: 'format' };
  if (s.length !== 8 && s.length !== 9) return { valid: false, reason: 'length' };
  const n = Number(s);
  if (n < range.min || n > range.max) return { valid: false, reason: 'range' };
  const base = s.slice(0, -1).padStart(8, '0');
  let c = mod11CheckDigit(base, IRD_PRIMARY);
  if (c === 10) {
    c = mod11CheckDigit(base, IRD_SECONDARY);
    if (c === 10) return { valid: false, reason: 'checksum' };
  }
  return c === Number(s.at(-1)) ? { valid: true, compact: s } : { valid: false, reason: 'checksum' };
}

/** GS1 modulus-10 check digit of 12 data digits (weights 1,3,1,3… from the left). */
export function gs1CheckDigit(first12: string): number {
  let total = 0;
  for (let i = 0; i < 12; i++) total += Number(first12[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (total % 10)) % 10;
}

/** NZBN: 13 digits, GS1 prefix 94, GS1 check digit. */
export function checkNzbn(input: string): IdCheck {
  const s = compactOf(input.trim());
  if (!/^\d{13}$/.test(s)) return { valid: false, reason: /^\d+$/.test(s) ? 'length' : 'format' };
  if (!s.startsWith('94')) return { valid: false, reason: 'prefix' };
  return gs1CheckDigit(s.slice(0, 12)) === Number(s[12]) ? { valid: true, compact: s } : { valid: false, reason: 'checksum' };
}

/** 'XX-XXX-XXX' / 'XXX-XXX-XXX' display of a valid IRD/GST number. */
export function formatIrdNumber(compact: string): string {
  const s = compact.padStart(9, '0');
  const head = compact.length === 8 ? s.slice(1, 3) : s.slice(0, 3);
  return `${head}-${s.slice(3, 6)}-${s.slice(6)}`;
}

export const GST_NUMBER_WARNING = "This GST number doesn't look valid — please check it";
export const NZBN_WARNING = "This NZBN doesn't look valid — please check it";

export interface FieldWarning {
  field: string;
  message: string;
}

/**
 * Soft checks for a GST number and an 'NZBN / Company Number' field. The second field also
 * holds Companies Office numbers (up to 8 digits), which have no check digit, so only values
 * that look like an NZBN (13 digits, or starting 94 and longer than a company number) are checked.
 */
export function identifierWarnings(fields: { gst_number?: string; nzbn?: string; company_number?: string }): FieldWarning[] {
  const out: FieldWarning[] = [];
  const gst = fields.gst_number?.trim();
  if (gst && !checkIrdNumber(gst).valid) out.push({ field: 'gst_number', message: GST_NUMBER_WARNING });
  for (const key of ['nzbn', 'company_number'] as const) {
    const v = fields[key]?.trim();
    if (!v) continue;
    const compact = compactOf(v);
    const looksLikeNzbn = key === 'nzbn' || compact.length === 13 || (/^94/.test(compact) && compact.length > 8);
    if (looksLikeNzbn && !checkNzbn(v).valid) out.push({ field: key, message: NZBN_WARNING });
  }
  return out;
}
