// The page the Connect window lands on after Xero. It says what happened and closes itself. The
// app's Content-Security-Policy allows scripts from our own origin only, so the closing is a
// tiny script served beside it (close.js), not inline code.
import { ACCOUNTING_MESSAGES } from '@tradie/contracts';
import { escapeHtml, smallPage } from '../../http/smallPage.ts';

export const CLOSE_SCRIPT = `// Closes the Connect window; the app notices and checks the connection again.
setTimeout(function () { window.close(); }, 1200);
`;

export function callbackPage(ok: boolean, reason?: string): string {
  const title = ok ? ACCOUNTING_MESSAGES.connected : ACCOUNTING_MESSAGES.authorizationFailed;
  const detail = ok ? '' : `<p>${escapeHtml(reason ?? '')}</p><p>You can close this window and try again.</p>`;
  return smallPage(
    ok ? 'Connected to Xero' : 'Xero connection failed',
    `<h1 data-result="${ok ? 'connected' : 'failed'}">${escapeHtml(title)}</h1>
${detail}
<script src="close.js"></script>`,
    `h1{color:${ok ? '#126b35' : '#b42318'}}`,
  );
}
