// @vitest-environment jsdom
// The Stages card against a mocked fetch: the figures and the stage invoices, a progress invoice
// of some lines (the body sent, the new invoice opened), a refusal in the server's words, and a
// variation added to the quote.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DocumentDetail } from '@tradie/contracts';
import { createHarness, json, problem } from '../shared/testKit.tsx';
import { StagesPart } from './StagesCard.tsx';

const navigate = vi.fn(async () => undefined);
vi.mock('@tanstack/react-router', async () => ({ Link: (await import('../shared/testLink.tsx')).TestLink, useNavigate: () => navigate }));

const h = createHarness();
beforeEach(() => {
  h.setUp();
  navigate.mockClear();
});
afterEach(() => h.tearDown());

const line = (description: string, amount: number) => ({ description, qty: 1, unit_price: amount, tax_included: false, tax_rate: 0.15, amount, gst: amount * 0.15 });
const quote = (over: Partial<DocumentDetail> = {}) =>
  ({
    id: 'q1',
    type: 'quote',
    status: 'accepted',
    line_items: [line('Labour', 800), line('Brackets', 300)],
    stages: { quoted: 1265, invoiced: 379.5, remaining: 885.5, invoices: [{ id: 'i1', reference: 'INV-0001', kind: 'deposit', total: 379.5, credited: 0 }] },
    ...over,
  }) as DocumentDetail;

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

  it('the final invoice shows what is left before it is created', () => {
    h.serve(() => json({}, 404));
    h.render(<StagesPart doc={quote()} show={show} />);
    h.click(h.button('Final invoice'));
    expect(h.container.querySelector('[data-testid="final-remainder"]')?.textContent).toContain('$885.50');
  });

  it('Add variation sends the line and says how much the quote grew', async () => {
    h.serve(() => json(quote({ stages: { quoted: 1322.5, invoiced: 379.5, remaining: 943, invoices: [] } }), 201));
    h.render(<StagesPart doc={quote()} show={show} />);
    h.click(h.button('Add variation'));
    h.type(field('Description'), 'Extra downpipe');
    h.type(field('Unit price'), '50');
    h.click(h.button('Add to quote'));
    await h.until(() => expect(show).toHaveBeenCalledWith('Variation added: the quote is $57.50 more'));
    expect(h.calls[0]).toEqual({ method: 'POST', path: '/invoices/q1/variations', body: { line: { description: 'Extra downpipe', qty: '1', unit_price: '50', tax_included: false, tax_rate: '0.15' } } });
  });
});
