import { useCallback, useEffect, useRef, useState } from 'react';

export type NoticeTone = 'success' | 'error' | 'info';

export interface NoticeState {
  text: string;
  tone: NoticeTone;
  /** Bumped on every show, so the same text twice is announced twice. */
  n: number;
}

/** How long a success notice stays (errors stay until dismissed or replaced). */
const SUCCESS_MS = 6000;

/** One notice at a time for a screen: show() replaces it; successes fade after a few seconds. */
export function useNotice() {
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const clear = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    setNotice(null);
  }, []);

  const show = useCallback((text: string, tone: NoticeTone = 'success') => {
    if (timer.current) clearTimeout(timer.current);
    setNotice((prev) => ({ text, tone, n: (prev?.n ?? 0) + 1 }));
    timer.current = tone === 'error' ? null : setTimeout(() => setNotice(null), SUCCESS_MS);
  }, []);

  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);

  return { notice, show, clear };
}

/**
 * A toast above the bottom of the screen (styles/components.css, .toast). The live region is always
 * in the page (so the first message is announced too); errors are `role="alert"`. The region keeps
 * its older name `doc-notice-region` as well, for the tests that set it aside for screenshots.
 */
export function Notice({ notice, onClose }: { notice: NoticeState | null; onClose: () => void }) {
  return (
    <div className="toast-region doc-notice-region" aria-live="polite" role="status">
      {notice && (
        <div key={notice.n} className={`toast toast--${notice.tone}`} role={notice.tone === 'error' ? 'alert' : undefined}>
          <span className="toast__text">{notice.text}</span>
          <button type="button" className="toast__close" onClick={onClose}>
            <span aria-hidden="true">×</span>
            <span className="visually-hidden">Dismiss</span>
          </button>
        </div>
      )}
    </div>
  );
}
