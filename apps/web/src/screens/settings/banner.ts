// The Settings message banner: red when the message contains 'Error', otherwise
// green; a success clears after 3 s, a failure after 5 s.
import { useCallback, useEffect, useRef, useState } from 'react';

export const SUCCESS_CLEAR_MS = 3000;
export const FAILURE_CLEAR_MS = 5000;

export interface BannerMessage {
  text: string;
  /** The outcome failed: decides how long the message stays and that it is announced at once. */
  failure: boolean;
  /** Bumped on every show, so the same text twice is shown (and announced) twice. */
  n: number;
}

/** The banner's colour follows the text, not the outcome. */
export const bannerTone = (text: string): 'error' | 'success' => (text.includes('Error') ? 'error' : 'success');

export const clearAfterMs = (failure: boolean): number => (failure ? FAILURE_CLEAR_MS : SUCCESS_CLEAR_MS);

/** One message at a time; a new one replaces the old and restarts its clock. */
export function useBanner() {
  const [message, setMessage] = useState<BannerMessage | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const show = useCallback((text: string, failure: boolean) => {
    if (timer.current) clearTimeout(timer.current);
    setMessage((prev) => ({ text, failure, n: (prev?.n ?? 0) + 1 }));
    timer.current = setTimeout(() => {
      timer.current = null;
      setMessage(null);
    }, clearAfterMs(failure));
  }, []);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  return { message, show };
}
