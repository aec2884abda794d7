// The two small pages of an email-change link (account/routes.ts): the one the link opens, with a
// single button (so a mail scanner that fetches links changes nothing), and the answer after it.
// No script: the app's Content-Security-Policy allows none inline, and none is needed.
const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function page(title: string, inner: string): string {
  return `<!doctype html>
<html lang="en-NZ">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:28rem;padding:0 1rem;color:#1f2933}h1{font-size:1.25rem}
button{width:100%;padding:.9rem;font-size:1.1rem;border:0;border-radius:6px;background:#1d4ed8;color:#fff;cursor:pointer}</style>
</head>
<body>
${inner}
</body>
</html>
`;
}

export function confirmPage(token: string): string {
  return page('Confirm your new email address', `<h1>Confirm your new email address</h1>
<p>Press the button to make this address the one you sign in to Tradie Quotes with.</p>
<form method="post" action="confirm-email-change">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit">Confirm new email address</button>
</form>`);
}

export function resultPage(ok: boolean, text: string, appUrl: string): string {
  return page(ok ? 'Email address changed' : 'Email address not changed', `<h1 data-result="${ok ? 'changed' : 'failed'}">${ok ? 'Email address changed' : 'Email address not changed'}</h1>
<p>${escapeHtml(text)}</p>
<p><a href="${escapeHtml(appUrl)}/login">Go to Tradie Quotes</a></p>`);
}
