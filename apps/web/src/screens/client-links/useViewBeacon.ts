import { useEffect, useRef } from 'react';
import { sendViewBeacon } from './queries.ts';

/** Tells the server once that the page was seen, when it has loaded (a view is counted by this, not by the GET). */
export function useViewBeacon(token: string, loaded: boolean): void {
  const sent = useRef<string | null>(null);
  useEffect(() => {
    if (!loaded || sent.current === token) return;
    sent.current = token;
    sendViewBeacon(token);
  }, [token, loaded]);
}
