// A document's PDF needs the session, so it is fetched as a blob (with the bearer header) and opened
// from an object URL. Pop-up blockers allow window.open only in the tap itself, so the window opens
// at once, empty, and is pointed at the PDF when it comes (without a window, this tab goes to it).
import type { NoticeTone } from '../../ui/Toast.tsx';
import { useCommand } from './command.ts';

/**
 * `open` for a PDF button, and `busy` while it runs (a tap meanwhile does nothing). A failure closes
 * the window and is said through `show`. `keep` is handed each object URL, to revoke when it is done.
 */
export function usePdfWindow(fetchPdf: () => Promise<Blob>, show: (text: string, tone?: NoticeTone) => void, keep: (url: string) => void) {
  const pdf = useCommand({
    run: async (win: Window | null) => {
      const blob = await fetchPdf();
      const url = URL.createObjectURL(blob.type === 'application/pdf' ? blob : new Blob([blob], { type: 'application/pdf' }));
      keep(url);
      if (win && !win.closed) win.location.href = url;
      else window.location.assign(url);
    },
    failed: 'Could not open the PDF',
    onFailed: (message, _, win) => {
      win?.close();
      show(message, 'error');
    },
  });
  const open = () => {
    if (pdf.pending) return;
    pdf.run(window.open('', '_blank'));
  };
  return { busy: pdf.pending, open };
}
