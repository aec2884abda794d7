// The few pages the API serves itself, outside the app (an email-change link, the Xero Connect
// window's landing page): one plain HTML shell, every text escaped. No inline script: the
// Content-Security-Policy allows scripts from our own origin only.

/** Text (or an attribute value) made safe to put in HTML: & < > " ' as character references. */
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

const BASE_STYLE = 'body{font:16px/1.5 system-ui,sans-serif;margin:2rem auto;max-width:28rem;padding:0 1rem;color:#1f2933}h1{font-size:1.25rem}';

/** A whole page: `title` is text (escaped here); `body` is HTML already escaped by the caller; `style` adds to the base. */
export function smallPage(title: string, body: string, style = ''): string {
  return `<!doctype html>
<html lang="en-NZ">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${BASE_STYLE}${style}</style>
</head>
<body>
${body}
</body>
</html>
`;
}
