// @vitest-environment jsdom
// The detail's Client link card against a mocked fetch: copy (issue, then the clipboard), share,
// withdraw after a confirm, and the views.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import type { ClientLinkRecord, DocumentDetail } from '@tradie/contracts';
import { createHarness, json } from '../shared/testKit.tsx';
import { ClientLinkCard, hasClientLink } from './ClientLinkCard.tsx';
import { detailView } from './view.ts';

const doc = { id: 'd1', type: 'quote', reference: 'QTE-0007', status: 'sent', payment_status: 'unpaid', extra_data: {}, converted_to: null, issued_on: null, send_attempts: [] } as unknown as DocumentDetail;
const link: ClientLinkRecord = { id: 'l1', url: 'https://app.example.nz/q/tok_abcdefghijklmnopqrstuvwxyz012345', issued_at: '2026-11-20T01:00:00.000Z', expires_on: '2026-12-20', views: 3, last_viewed_at: '2026-11-25T21:30:00.000Z' };

const h = createHarness();
const { calls, text, until, button } = h;
beforeEach(() => h.setUp());
afterEach(() => {
  h.tearDown();
  vi.restoreAllMocks();
});

const timeline = (...kinds: ('link_issued' | 'link_withdrawn')[]) => ({
  entries: [{ kind: 'created', at: '2026-11-20T00:00:00.000Z', text: 'Created QTE-0007' }, ...kinds.map((kind) => ({ kind, at: '2026-11-20T01:00:00.000Z', text: kind }))],
});

/** The link's answers by `answer`; the timeline says a link is out unless `entries` says otherwise. */
const serve = (answer: (method: string) => Response, entries = timeline('link_issued')) => h.serve((method, path) => (path.endsWith('/timeline') ? json(entries) : answer(method)));

function render(d: DocumentDetail = doc) {
  const show = vi.fn();
  h.render(<ClientLinkCard doc={d} view={detailView(d)} show={show} />);
  return show;
}

describe('the Client link card', () => {
  it('is for sent documents only, not drafts never sent nor void ones', () => {
    expect(hasClientLink(doc, detailView(doc))).toBe(true);
    const draft = { ...doc, status: 'draft' } as DocumentDetail;
    expect(hasClientLink(draft, detailView(draft))).toBe(false);
    const tried = { ...draft, send_attempts: [{ outcome: 'saved_not_delivered' }] } as unknown as DocumentDetail;
    expect(hasClientLink(tried, detailView(tried))).toBe(true);
    const voided = { ...doc, status: 'void' } as DocumentDetail;
    expect(hasClientLink(voided, detailView(voided))).toBe(false);
  });

  it('shows the views and when it was last opened (NZ time), and Copy link issues the link and copies it', async () => {
    serve(() => json(link));
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    const show = render();
    await until(() => expect(text()).toContain('3 times'));
    expect(text()).toMatch(/26 Nov 2026, 10:30\s?am/i);
    expect(text()).toContain('20/12/2026');
    act(() => button('Copy link').click());
    await until(() => expect(button('Copied ✓')).toBeTruthy());
    expect(writeText).toHaveBeenCalledWith(link.url);
    expect(show).toHaveBeenCalledWith('Link to QTE-0007 copied');
    expect(calls.map((c) => `${c.method} ${c.path}`)).toContain('POST /invoices/d1/link');
  });

  it('with no link out (by the timeline): not asked for, says so; with the clipboard refused, shows the address to copy by hand', async () => {
    serve((method) => (method === 'GET' ? json({ detail: 'No active link' }, 404) : json(link)), timeline('link_issued', 'link_withdrawn'));
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: () => Promise.reject(new Error('denied')) } });
    render();
    await until(() => expect(text()).toContain('No link yet'));
    expect(text()).not.toContain('Withdraw link');
    expect(calls.filter((c) => c.path === '/invoices/d1/link')).toHaveLength(0);
    act(() => button('Copy link').click());
    await until(() => expect(h.container.querySelector<HTMLInputElement>('#detail-link-url')?.value).toBe(link.url));
  });

  it('Share… hands the link to the phone’s share sheet when there is one', async () => {
    serve(() => json(link));
    const share = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'share', { configurable: true, value: share });
    render();
    await until(() => expect(text()).toContain('3 times'));
    act(() => button('Share…').click());
    await until(() => expect(share).toHaveBeenCalledWith({ title: 'Quote QTE-0007', text: 'Your quote QTE-0007', url: link.url }));
    Reflect.deleteProperty(navigator, 'share');
  });

  it('Withdraw link asks first, then DELETEs it', async () => {
    serve((method) => (method === 'DELETE' ? new Response(null, { status: 204 }) : json(link)));
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const show = render();
    await until(() => expect(text()).toContain('Withdraw link'));
    act(() => button('Withdraw link').click());
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(0);
    act(() => button('Withdraw link').click());
    await until(() => expect(show).toHaveBeenCalledWith('Link withdrawn: it no longer opens'));
    expect(confirm).toHaveBeenCalledTimes(2);
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/invoices/d1/link']);
    await until(() => expect(text()).toContain('No link yet'));
  });
});
