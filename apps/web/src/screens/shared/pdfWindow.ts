// A document's PDF needs the session, so it is fetched as a blob (with the bearer header) and opened
// from an object URL. Pop-up blockers allow window.open only in the tap itself, so the window opens
// at once, empty, and is pointed at the PDF when it comes (without a window, this tab goes to it).
import { useState } from 'react';
import { errorDetail } from '../../api/client.ts';
import type { NoticeTone } from '../../ui/Toast.tsx';

/**
 * `open` for a PDF button, and `busy` while it runs (a tap meanwhile does nothing). A failure closes
 * the window and is said through `show`. `keep` is handed each object URL, to revoke when it is done.
 */
export function usePdfWindow(fetchPdf: () => Promise<Blob>, show: (text: string, tone?: NoticeTone) => void, keep: (url: string) => void) {
  const [busy, setBusy] = useState(false);
  const open = async () => {
    if (busy) return;
    const win = window.open('', '_blank');
    setBusy(true);
    try {
      const blob = await fetchPdf();
      const url = URL.createObjectURL(blob.type === 'application/pdf' ? blob : new Blob([blob], { type: 'application/pdf' }));
      keep(url);
      if (win && !win.closed) win.location.href = url;
      else window.location.assign(url);
    } catch (e) {
      win?.close();
      show(errorDetail(e) ?? 'Could not open the PDF', 'error');
    } finally {
      setBusy(false);
    }
  };
  return { busy, open };
}
