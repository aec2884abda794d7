// Instants on the tradie's screens, in New Zealand time whatever the phone's clock says.
import { NZ_TIME_ZONE } from '@tradie/domain';

const dateTime = new Intl.DateTimeFormat('en-NZ', {
  timeZone: NZ_TIME_ZONE,
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});
const dateOnly = new Intl.DateTimeFormat('en-NZ', { timeZone: NZ_TIME_ZONE, day: 'numeric', month: 'long', year: 'numeric' });

/** '26 Nov 2026, 9:41 am' in New Zealand. */
export const nzDateTime = (instant: string): string => dateTime.format(new Date(instant));

/** '26 November 2026' in New Zealand. */
export const nzDay = (instant: string): string => dateOnly.format(new Date(instant));
