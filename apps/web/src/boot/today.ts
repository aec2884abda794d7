import { formatNzToday, isoNzDate } from '../public/dates.ts';

/**
 * Pre-rendered pages carry the build date in 'Last updated'; rewrite it to today straight away,
 * before React hydrates (which happens later, when the browser is idle).
 */
export function showTodayInDates(doc: Document, now: Date): void {
  for (const el of doc.querySelectorAll<HTMLTimeElement>('time[data-today]')) {
    el.textContent = formatNzToday(now);
    el.dateTime = isoNzDate(now);
  }
}
