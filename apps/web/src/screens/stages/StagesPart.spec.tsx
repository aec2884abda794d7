// @vitest-environment jsdom
// The Stages card against a mocked fetch: the figures and the stage invoices, a progress invoice
// of some lines (the body sent, the new invoice opened), a refusal in the server's words, and
// variations: proposed, shown apart, sent (in the server's words), marked approved, then invoiced.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DocumentDetail } from '@tradie/contracts';
import { createHarness, json, problem } from '../shared/testKit.tsx';
import { StagesPart } from './StagesPart.tsx';

const navigate = vi.fn(async () => undefined);
vi.mock('@tanstack/react-router', async () => ({ Link: (await import('../shared/testLink.tsx')).TestLink, useNavigate: () => navigate }));

const h = createHarness();
beforeEach(() => {
  h.setUp();
  navigate.mockClear();
});
afterEach(() => h.tearDown());

const money = (n: number): string => `$${n.toFixed(2)}`;
const line = (description: string, amount: number) => ({
  description, qty: 1, unit_price: amount, tax_included: false, tax_rate: 0.15, amount, gst: amount * 0.15, amount_excl_gst: amount, formatted: { unit_price: money(amount), amount: money(amount) },
});
const quote = (over: Partial<DocumentDetail> = {}) =>
  ({
    id: 'q1',
    type: 'quote',
    status: 'accepted',
    line_items: [line('Labour', 800), line('Brackets', 300)],
    stages: { quoted: 1265, invoiced: 379.5, remaining: 885.5, invoices: [{ id: 'i1', reference: 'INV-0001', kind: 'deposit', total: 379.5, credited: 0 }] },
    client: { email: 'jo@example.nz' },
    variations: [],
    variations_summary: null,
    ...over,
  }) as DocumentDetail;

const variation = (over: Partial<DocumentDetail['variations'][number]> = {}): DocumentDetail['variations'][number] => ({
  id: 'v1', number: 1, name: 'Variation 1', note: '', status: 'awaiting_approval', status_label: 'Awaiting approval',
  line_items: [line('Extra downpipe', 50)], line_indexes: [2], subtotal: 50, gst: 7.5, total: 57.5,
  formatted: { subtotal: '$50.00', gst: '$7.50', total: '$57.50' }, invoiced: 0, remaining: 0, proposed_at: '2026-11-29T01:00:00Z', send_attempts: [],
  approved_at: null, approved_by: null, signer_name: null, signed: false, declined_at: null, declined_by: null, decline_note: null, withdrawn_at: null,
  ...over,
});

/** The control a label (its visible words starting with `words`) points at. */
function field(words: string): HTMLInputElement {
  const label = [...h.container.querySelectorAll('label')].find((l) => l.textContent?.trim().startsWith(words));
  if (!label) throw new Error(`no label ${words} in: ${h.text()}`);
  const control = label.htmlFor ? document.getElementById(label.htmlFor) : label.querySelector('input');
  if (!control) throw new Error(`label ${words} has no control`);
  return control as HTMLInputElement;
}

const show = vi.fn();

describe('Quote detail → Stages', () => {
  it('shows the figures in words and links each stage invoice; nothing for a quote not accepted', () => {
    h.serve(() => json({}, 404));
    h.render(<StagesPart doc={quote()} show={show} />);
    expect(h.text()).toContain('30 % of the quote invoiced');
    expect(h.container.querySelector('[data-testid="stages-quoted"]')?.textContent).toBe('$1,265.00');
    expect(h.container.querySelector('[data-testid="stages-invoiced"]')?.textContent).toBe('$379.50');
    expect(h.container.querySelector('[data-testid="stages-remaining"]')?.textContent).toBe('$885.50');
    expect(h.container.querySelector('a[href="/app/invoices/i1"]')?.textContent).toContain('INV-0001Deposit$379.50');
    for (const b of ['Invoice deposit', 'Progress invoice', 'Final invoice', 'Add variation']) expect(h.button(b)).toBeTruthy();
    h.render(<StagesPart doc={quote({ status: 'sent', stages: { quoted: 1265, invoiced: 0, remaining: 1265, invoices: [] } })} show={show} />);
    expect(h.text()).toBe('');
  });

  it('a credited deposit: Invoiced is net of the credit note, and the stage invoice says what was credited', () => {
    h.serve(() => json({}, 404));
    const stages = { quoted: 1265, invoiced: 279.5, remaining: 985.5, invoices: [{ id: 'i1', reference: 'INV-0001', kind: 'deposit' as const, total: 379.5, credited: 100 }] };
    h.render(<StagesPart doc={quote({ stages })} show={show} />);
    expect(h.container.querySelector('[data-testid="stages-invoiced"]')?.textContent).toBe('$279.50');
    expect(h.container.querySelector('[data-testid="stages-remaining"]')?.textContent).toBe('$985.50');
    expect(h.container.querySelector('a[href="/app/invoices/i1"]')?.textContent).toContain('INV-0001Deposit$379.50 $100.00 credited');
    // Nothing credited: no words about it.
    h.render(<StagesPart doc={quote()} show={show} />);
    expect(h.text()).not.toContain('credited');
  });

  it('a progress invoice of some lines sends each line with its percent, then opens the new invoice', async () => {
    h.serve((method, path) => (method === 'POST' && path === '/invoices/q1/stages' ? json({ ...quote(), id: 'i2', type: 'invoice', stages: null }, 201) : json({}, 404)));
    h.render(<StagesPart doc={quote()} show={show} />);
    h.click(h.button('Progress invoice'));
    h.click(field('Per line'));
    h.type(field('Brackets'), '40');
    h.click(h.button('Create invoice'));
    await h.until(() => expect(navigate).toHaveBeenCalledWith({ to: '/app/invoices/$id', params: { id: 'i2' } }));
    expect(h.calls.find((c) => c.method === 'POST')?.body).toEqual({ kind: 'progress', lines: [{ line_index: 1, percent: '40' }] });
  });

  it("past 100 %: the server's sentence is shown and nothing opens", async () => {
    const detail = 'Line 1 would be invoiced past 100 %: 70 % of it is invoiced already.';
    h.serve(() => problem(422, detail));
    h.render(<StagesPart doc={quote()} show={show} />);
    h.click(h.button('Progress invoice'));
    h.type(field('How far through the job'), '20');
    h.click(h.button('Create invoice'));
    await h.until(() => expect(h.container.querySelector('[role="alert"]')?.textContent).toBe(detail));
    expect(navigate).not.toHaveBeenCalled();
  });

  it('says what is wrong before sending a deposit of 0 %', () => {
    h.serve(() => json({}, 500));
    h.render(<StagesPart doc={quote()} show={show} />);
    h.click(h.button('Invoice deposit'));
    h.type(field('Percent of the quote'), '0');
    h.click(h.button('Create invoice'));
    expect(h.container.querySelector('[role="alert"]')?.textContent).toBe('The percent must be more than 0 %');
    expect(h.calls).toHaveLength(0);
  });

  it('a deposit the quote asked for is filled in: its percentage, or its amount', () => {
    h.serve(() => json({}, 404));
    const asked = (deposit: DocumentDetail['deposit']) => quote({ stages: { quoted: 1265, invoiced: 0, remaining: 1265, invoices: [] }, deposit });
    h.render(<StagesPart doc={asked({ percent: '30', amount: 379.5, formatted: '$379.50', wording: '' })} show={show} />);
    h.click(h.button('Invoice deposit'));
    expect(field('Percent of the quote').value).toBe('30');
    h.tearDown();
    h.setUp();
    h.serve(() => json({}, 404));
    h.render(<StagesPart doc={asked({ percent: null, amount: 500, formatted: '$500.00', wording: '' })} show={show} />);
    h.click(h.button('Invoice deposit'));
    expect((h.container.querySelector('input[inputmode="decimal"]') as HTMLInputElement).value).toBe('500.00');
  });

  it('the final invoice shows what is left before it is created', () => {
    h.serve(() => json({}, 404));
    h.render(<StagesPart doc={quote()} show={show} />);
    h.click(h.button('Final invoice'));
    expect(h.container.querySelector('[data-testid="final-remainder"]')?.textContent).toContain('$885.50');
  });

  it('Add variation proposes it to the client: the quote as accepted stays, and the variation waits to be sent', async () => {
    h.serve(() => json(quote({ variations: [variation()], variations_summary: 'Accepted $1,265.00 · Variation 1 $57.50 awaiting approval' }), 201));
    h.render(<StagesPart doc={quote()} show={show} />);
    h.click(h.button('Add variation'));
    h.type(field('Description'), 'Extra downpipe');
    h.type(field('Unit price'), '50');
    h.click(h.button('Save variation'));
    await h.until(() => expect(show).toHaveBeenCalledWith('Variation 1 ($57.50) added: send it to the client for their approval'));
    expect(h.calls[0]).toEqual({ method: 'POST', path: '/invoices/q1/variations', body: { lines: [{ description: 'Extra downpipe', qty: '1', unit_price: '50', tax_included: false, tax_rate: '0.15' }], note: '' } });
  });

  it('shows each variation apart; sending says what happened to the email; approved on the client\'s word, then invoiced', async () => {
    const waiting = quote({ variations: [variation()], variations_summary: 'Accepted $1,265.00 · Variation 1 $57.50 awaiting approval' });
    h.serve((method, path) => {
      if (path === '/invoices/q1/variations/v1/send') return json({ id: 'q1', variation_id: 'v1', status: 'accepted', to: ['jo@example.nz'], cc: [], bcc: [], subject: 'Variation 1', message_id: 'm', sent_at: '', outcome: 'saved_not_delivered', detail: 'Saved to the outbox — email is not set up on this server' });
      if (path === '/invoices/q1/variations/v1/approve') return json(quote({ variations: [variation({ status: 'approved', status_label: 'Approved', approved_by: 'business', approved_at: '2026-11-30T01:00:00Z', remaining: 57.5 })] }));
      if (method === 'POST' && path === '/invoices/q1/stages') return json({ ...quote(), id: 'i9', type: 'invoice', stages: null }, 201);
      return json({}, 404);
    });
    h.render(<StagesPart doc={waiting} show={show} />);
    expect(h.container.querySelector('[data-testid="variations-summary"]')?.textContent).toBe('Accepted $1,265.00 · Variation 1 $57.50 awaiting approval');
    expect(h.text()).toContain('Not sent to the client yet');
    expect(h.text()).not.toContain('Invoice Variation 1');
    h.click(h.button('Send to client'));
    // The outbox is not 'sent': the server's words are shown as they are.
    await h.until(() => expect(show).toHaveBeenCalledWith('Saved to the outbox — email is not set up on this server', 'info'));
    h.click(h.button('Mark approved'));
    expect(h.text()).toContain('Did the client agree to Variation 1 ($57.50) in person or in writing?');
    h.click(h.button('Yes, mark approved'));
    await h.until(() => expect(show).toHaveBeenCalledWith('Variation 1 marked approved: it can be invoiced now'));
  });

  it('an approved variation is invoiced on its own, and the new invoice opens', async () => {
    h.serve((method, path) => (method === 'POST' && path === '/invoices/q1/stages' ? json({ ...quote(), id: 'i9', type: 'invoice', stages: null }, 201) : json({}, 404)));
    h.render(<StagesPart doc={quote({ variations: [variation({ status: 'approved', status_label: 'Approved', approved_by: 'client', signer_name: 'Jo Bloggs', signed: true, approved_at: '2026-11-30T01:00:00Z', remaining: 57.5 })] })} show={show} />);
    expect(h.text()).toContain('Approved by Jo Bloggs on 30/11/2026 (signed)');
    h.click(h.button('Invoice Variation 1 ($57.50)'));
    await h.until(() => expect(navigate).toHaveBeenCalledWith({ to: '/app/invoices/$id', params: { id: 'i9' } }));
    expect(h.calls.find((c) => c.method === 'POST')?.body).toEqual({ kind: 'progress', variation_id: 'v1' });
  });
});
