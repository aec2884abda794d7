import { useEffect, useState } from 'react';
import { formatNzToday, isoNzDate } from '../dates.ts';

/**
 * 'Last updated' shows today's date. The pre-rendered HTML carries the build date (the boot script
 * rewrites it to today before React arrives, see boot/today.ts); once mounted, the element is
 * re-created with the browser's date so a stale server text can never survive hydration.
 */
export function LastUpdated() {
  const [now, setNow] = useState<Date | null>(null);
  useEffect(() => {
    setNow(new Date());
  }, []);
  const date = now ?? new Date();
  return (
    <p className="last-updated">
      Last updated:{' '}
      <time key={now ? 'client' : 'server'} data-today="" dateTime={isoNzDate(date)} suppressHydrationWarning>
        {formatNzToday(date)}
      </time>
    </p>
  );
}
