// The page the Connect window lands on after Xero. It says what happened and closes itself. The
// app's Content-Security-Policy allows scripts from our own origin only, so the closing is a
// tiny script served beside it (close.js), not inline code.
import { ACCOUNTING_MESSAGES } from '@tradie/contracts';

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

export const CLOSE_SCRIPT = `// Closes the Connect window; the app notices and checks the connection again.
setTimeout(function () { window.close(); }, 1200);
`;

export function callbackPage(ok: boolean, reason?: string): string {
  const title = ok ? ACCOUNTING_MESSAGES.connected : ACCOUNTING_MESSAGES.authorizationFailed;
  const detail = ok ? '' : `<p>${escapeHtml(reason ?? '')}</p><p>You can close this window and try again.</p>`;
  return `<!doctype html>
<html lang="en-NZ">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${ok ? 'Connected to Xero' : 'Xero connection failed'}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:2rem;color:#1f2933}h1{font-size:1.25rem;color:${ok ? '#126b35' : '#b42318'}}</style>
</head>
<body>
<h1 data-result="${ok ? 'connected' : 'failed'}">${escapeHtml(title)}</h1>
${detail}
<script src="close.js"></script>
</body>
</html>
`;
}
