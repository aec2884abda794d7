// The small pages of the links in account emails (account/routes.ts): the page a link opens, with a
// single button (so a mail scanner that fetches links changes nothing), and the answer after it.
// Two links: the new address's 'confirm your new email address', and the current address's
// 'This wasn't me — cancel the change'. No script: none is needed.
import { escapeHtml, smallPage } from '../http/smallPage.ts';

const BUTTON = 'button{width:100%;padding:.9rem;font-size:1.1rem;border:0;border-radius:6px;background:#1d4ed8;color:#fff;cursor:pointer}';

function buttonPage(title: string, text: string, action: string, token: string, button: string): string {
  return smallPage(
    title,
    `<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(text)}</p>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit">${escapeHtml(button)}</button>
</form>`,
    BUTTON,
  );
}

export function confirmPage(token: string): string {
  return buttonPage(
    'Confirm your new email address',
    'Press the button to make this address the one you sign in to Tradie Quotes with.',
    'confirm-email-change',
    token,
    'Confirm new email address',
  );
}

/** 'This wasn't me': the page the link in the notice to the current address opens. */
export function cancelPage(token: string): string {
  return buttonPage(
    'Cancel the change of your email address',
    'Press the button to cancel the change and sign out of Tradie Quotes on every device. Your email address stays as it is.',
    'cancel-email-change',
    token,
    'Cancel the change and sign out everywhere',
  );
}

/** What a link's button did. `data-result` names it for tests and scripts. */
export type PageResult = 'changed' | 'failed' | 'cancelled' | 'not-cancelled';

const TITLES: Record<PageResult, string> = {
  changed: 'Email address changed',
  failed: 'Email address not changed',
  cancelled: 'Change cancelled',
  'not-cancelled': 'Change not cancelled',
};

export function resultPage(result: PageResult, text: string, appUrl: string): string {
  const title = TITLES[result];
  return smallPage(
    title,
    `<h1 data-result="${result}">${escapeHtml(title)}</h1>
<p>${escapeHtml(text)}</p>
<p><a href="${escapeHtml(appUrl)}/login">Go to Tradie Quotes</a></p>`,
    BUTTON,
  );
}
