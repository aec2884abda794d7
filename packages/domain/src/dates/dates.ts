// Calendar days in New Zealand. Business dates are 'YYYY-MM-DD' calendar days in
// Pacific/Auckland: a server in UTC must not date a 9 am invoice on 1 April into March.
// Instants (event times) are ISO strings; the clock is always passed in, never read here.

export type LocalDate = string;

export const NZ_TIME_ZONE = 'Pacific/Auckland';

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isLocalDate(s: unknown): s is LocalDate {
  if (typeof s !== 'string') return false;
  const m = ISO_DATE.exec(s);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1900 || y > 2999 || mo < 1 || mo > 12 || d < 1) return false;
  return d <= daysInMonth(y, mo);
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const partsFormatter = new Intl.DateTimeFormat('en-CA', { timeZone: NZ_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/** The NZ days of instants seen lately: a stream's events are folded again on every command. */
const nzDays = new Map<string, LocalDate>();
const NZ_DAYS_KEPT = 10_000;

/** The NZ calendar day of an instant. */
export function nzDateOf(instant: Date | string): LocalDate {
  if (typeof instant !== 'string') return nzDayOfDate(instant);
  let day = nzDays.get(instant);
  if (day === undefined) {
    day = nzDayOfDate(new Date(instant));
    if (nzDays.size >= NZ_DAYS_KEPT) nzDays.clear();
    nzDays.set(instant, day);
  }
  return day;
}

function nzDayOfDate(d: Date): LocalDate {
  const parts = partsFormatter.formatToParts(d);
  const get = (t: string): string => parts.find((p) => p.type === t)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
}

const toUtc = (d: LocalDate): Date => new Date(`${d}T00:00:00Z`);
const fromUtc = (d: Date): LocalDate => d.toISOString().slice(0, 10);

export function addDays(d: LocalDate, days: number): LocalDate {
  const t = toUtc(d);
  t.setUTCDate(t.getUTCDate() + days);
  return fromUtc(t);
}

export function addMonths(d: LocalDate, months: number): LocalDate {
  const [y, m, day] = d.split('-').map(Number) as [number, number, number];
  const idx = y * 12 + (m - 1) + months;
  const ny = Math.floor(idx / 12);
  const nm = (idx % 12) + 1;
  return `${ny}-${String(nm).padStart(2, '0')}-${String(Math.min(day, daysInMonth(ny, nm))).padStart(2, '0')}`;
}

/** Whole days from a to b (b − a). */
export const daysBetween = (a: LocalDate, b: LocalDate): number => Math.round((toUtc(b).getTime() - toUtc(a).getTime()) / 86_400_000);

export const compareDates = (a: LocalDate, b: LocalDate): number => (a < b ? -1 : a > b ? 1 : 0);

/** 'YYYY-MM' of a date. */
export const monthOf = (d: LocalDate): string => d.slice(0, 7);

export const firstOfMonth = (month: string): LocalDate => `${month}-01`;
export function lastOfMonth(month: string): LocalDate {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return `${month}-${String(daysInMonth(y, m)).padStart(2, '0')}`;
}

/** Every 'YYYY-MM' from the month of `from` to the month of `to`, inclusive. */
export function monthsBetween(from: LocalDate, to: LocalDate): string[] {
  const out: string[] = [];
  let m = monthOf(from);
  const end = monthOf(to);
  while (m <= end) {
    out.push(m);
    m = monthOf(addMonths(`${m}-01`, 1));
  }
  return out;
}

/**
 * The NZ tax year named by the year it ends in: `2026` is 1 April 2025 – 31 March 2026.
 */
export function taxYearRange(year: number): { start: LocalDate; end: LocalDate } {
  return { start: `${year - 1}-04-01`, end: `${year}-03-31` };
}

/** The tax year (by its ending year) a date falls in: from April onward it ends next year. */
export function taxYearOf(d: LocalDate): number {
  const [y, m] = d.split('-').map(Number) as [number, number];
  return m >= 4 ? y + 1 : y;
}

/** '2025–26' style label for a tax year named by its ending year. */
export const taxYearLabel = (year: number): string => `${year - 1}–${String(year).slice(2)}`;

/** en-NZ day-first date with two-digit day and month: 04/07/2025. */
export function formatNzDate(d: LocalDate): string {
  const [y, m, day] = d.split('-');
  return `${day}/${m}/${y}`;
}

const longMonths = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const shortMonths = longMonths.map((m) => m.slice(0, 3));

/** '6 December 2025'. */
export function formatNzDateLong(d: LocalDate): string {
  const [y, m, day] = d.split('-').map(Number) as [number, number, number];
  return `${day} ${longMonths[m - 1]} ${y}`;
}

const nzDateTimeFormat = new Intl.DateTimeFormat('en-NZ', { timeZone: NZ_TIME_ZONE, weekday: 'short', day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit', hour12: true });
const nzTimeFormat = new Intl.DateTimeFormat('en-NZ', { timeZone: NZ_TIME_ZONE, hour: 'numeric', minute: '2-digit', hour12: true });

/** An instant as New Zealand sees it: 'Thu, 14 May, 9:41 am'. */
export const formatNzDateTime = (instant: Date | string): string => nzDateTimeFormat.format(new Date(instant));

/** The time of day of an instant in New Zealand: '9:41 am'. */
export const formatNzTime = (instant: Date | string): string => nzTimeFormat.format(new Date(instant));

/** 'Apr 2026' for a 'YYYY-MM' month. */
export function formatMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return `${shortMonths[m - 1]} ${y}`;
}
