// The two small pages of an email-change link (account/routes.ts): the one the link opens, with a
// single button (so a mail scanner that fetches links changes nothing), and the answer after it.
// No script: none is needed.
import { escapeHtml, smallPage } from '../http/smallPage.ts';

const BUTTON = 'button{width:100%;padding:.9rem;font-size:1.1rem;border:0;border-radius:6px;background:#1d4ed8;color:#fff;cursor:pointer}';

export function confirmPage(token: string): string {
  return smallPage(
    'Confirm your new email address',
    `<h1>Confirm your new email address</h1>
<p>Press the button to make this address the one you sign in to Tradie Quotes with.</p>
<form method="post" action="confirm-email-change">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit">Confirm new email address</button>
</form>`,
    BUTTON,
  );
}

export function resultPage(ok: boolean, text: string, appUrl: string): string {
  const title = ok ? 'Email address changed' : 'Email address not changed';
  return smallPage(
    title,
    `<h1 data-result="${ok ? 'changed' : 'failed'}">${title}</h1>
<p>${escapeHtml(text)}</p>
<p><a href="${escapeHtml(appUrl)}/login">Go to Tradie Quotes</a></p>`,
    BUTTON,
  );
}
