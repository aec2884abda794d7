/** Today's date as New Zealanders write it (e.g. 23/11/2026), on the New Zealand calendar. */
export function formatNzToday(now: Date): string {
  return new Intl.DateTimeFormat('en-NZ', { timeZone: 'Pacific/Auckland' }).format(now);
}

/** The same calendar day as an ISO date (2026-11-23), for <time dateTime>. */
export function isoNzDate(now: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Auckland' }).format(now);
}
