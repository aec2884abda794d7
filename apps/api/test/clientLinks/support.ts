// What the client-link tests share: a quote or invoice sent to a client, the link read out of the
// email the client got, and calls to the public routes from an address of the test's own (the
// public routes are rate-limited per address).
import { makePng } from '@tradie/testkit/images';
import { type TestApp, signUp } from '../support/testApp.ts';
import { addClient, line } from '../documents/support.ts';

export type User = Awaited<ReturnType<typeof signUp>>;

let ipSeq = 0;
/** A fresh documentation-range address: each test's public calls count on their own. */
export const freshIp = (): string => {
  ipSeq += 1;
  return `198.51.${Math.floor(ipSeq / 250)}.${(ipSeq % 250) + 1}`;
};

/** Calls to /api/v1/public/… from one address, with a browser's user agent. */
export function publicClient(t: TestApp, ip = freshIp()) {
  const headers = { 'User-Agent': 'Mozilla/5.0 (iPhone; test)' };
  return {
    ip,
    get: (path: string) => t.call('GET', `/public${path}`, { ip, headers }),
    post: (path: string, json?: unknown) => t.call('POST', `/public${path}`, { ip, headers, ...(json === undefined ? {} : { json }) }),
  };
}

export async function documentFor(t: TestApp, u: User, type: 'quote' | 'invoice', body: Record<string, unknown> = {}) {
  const client_id = await addClient(t, u.userId, { name: 'Hēmi Walker', email: 'hemi@example.nz' });
  const r = await t.post('/invoices', { type, client_id, line_items: [line('Heat pump install', 1, 2400), line('Wiring', 3, 85.5)], notes: 'Includes disposal', ...body }, u.token);
  if (r.status !== 201) throw new Error(`create failed: ${r.status} ${r.text}`);
  return r.json as { id: string; reference: string; version: number };
}

/** Emails the document and answers the link in the email the client got. */
export async function sendAndReadLink(t: TestApp, u: User, id: string): Promise<{ url: string; token: string; text: string }> {
  const r = await t.post(`/invoices/${id}/send`, undefined, u.token);
  if (r.status !== 200) throw new Error(`send failed: ${r.status} ${r.text}`);
  const mail = [...t.mailer.sent].reverse().find((m) => m.headers?.['X-Entity-Ref-ID'] === id);
  if (!mail) throw new Error('no mail for the document');
  const m = /online: (http:\/\/app\.test\/[qi]\/([A-Za-z0-9_-]+))/.exec(mail.text);
  if (!m) throw new Error(`no link in the mail: ${mail.text}`);
  return { url: m[1]!, token: m[2]!, text: mail.text };
}

/** A new business with a quote emailed to its client: the quote, its link's token and a client calling from a fresh address. */
export async function sentQuoteLink(t: TestApp, body: Record<string, unknown> = {}) {
  const u = await signUp(t);
  const q = await documentFor(t, u, 'quote', body);
  const { token } = await sendAndReadLink(t, u, q.id);
  return { u, q, token, c: publicClient(t) };
}

/** A small signature drawn with a finger: a real PNG as a data URL. */
export const signaturePng = (): string =>
  `data:image/png;base64,${makePng(120, 40, (x, y) => (Math.abs(y - 20 - Math.round(10 * Math.sin(x / 8))) < 2 ? [20, 20, 20] : [255, 255, 255])).toString('base64')}`;
