// @vitest-environment jsdom
// The Credit form against a mocked fetch: some lines with a quantity and a reason (the body sent,
// the credit note handed back), and a refusal in the server's words.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CreditNoteRecord, DocumentDetail } from '@tradie/contracts';
import { createHarness, json, problem } from '../shared/testKit.tsx';
import { CreditForm } from './CreditForm.tsx';

const h = createHarness();
beforeEach(() => h.setUp());
afterEach(() => h.tearDown());

const line = (description: string, qty: number, unit: number) => ({ description, qty, unit_price: unit, tax_included: false, tax_rate: 0.15, amount: qty * unit, gst: qty * unit * 0.15, amount_excl_gst: qty * unit, formatted: { unit_price: `$${unit.toFixed(2)}`, amount: `$${(qty * unit).toFixed(2)}` } });
const invoice = { id: 'inv1', type: 'invoice', status: 'issued', issued_on: '2026-11-20', total: 253, credited: 0, line_items: [line('Labour', 2, 80), line('Brackets', 2, 30)] } as DocumentDetail;

function field(words: string): HTMLInputElement {
  const label = [...h.container.querySelectorAll('label')].find((l) => l.textContent?.trim().startsWith(words));
  if (!label) throw new Error(`no label ${words} in: ${h.text()}`);
  return (label.htmlFor ? document.getElementById(label.htmlFor) : label.querySelector('input')) as HTMLInputElement;
}

describe('Invoice detail → Credit', () => {
  it('some lines: the ticked line with its quantity and the reason; the credit note is handed back', async () => {
    const note = { id: 'cn1', reference: 'CN-0001', total: 34.5 } as CreditNoteRecord;
    h.serve(() => json(note, 201));
    const onDone = vi.fn();
    h.render(<CreditForm doc={invoice} onDone={onDone} onCancel={() => undefined} />);
    expect(h.text()).toContain('$253.00 is left to credit');
    h.click(field('Some lines'));
    h.click(field('Brackets'));
    h.type(field('Qty to credit'), '1');
    h.type(field('Reason'), 'One bracket returned');
    h.click(h.button('Issue credit note'));
    await h.until(() => expect(onDone).toHaveBeenCalledWith(note));
    expect(h.calls[0]).toEqual({ method: 'POST', path: '/invoices/inv1/credit-notes', body: { lines: [{ line_index: 1, qty: '1' }], reason: 'One bracket returned' } });
  });

  it('the reason is needed before anything is sent', () => {
    h.serve(() => json({}, 500));
    h.render(<CreditForm doc={invoice} onDone={() => undefined} onCancel={() => undefined} />);
    h.click(h.button('Issue credit note'));
    expect(h.container.querySelector('[role="alert"]')?.textContent).toBe('Say why the invoice is credited');
    expect(h.calls).toHaveLength(0);
  });

  it("more than is left: the server's sentence", async () => {
    const detail = 'This credit of $300.00 is more than the $253.00 left to credit on the invoice';
    h.serve(() => problem(422, detail));
    h.render(<CreditForm doc={invoice} onDone={() => undefined} onCancel={() => undefined} />);
    h.click(field('An amount'));
    h.type(field('Amount (GST included)'), '300');
    h.type(field('Reason'), 'Discount');
    h.click(h.button('Issue credit note'));
    await h.until(() => expect(h.container.querySelector('[role="alert"]')?.textContent).toBe(detail));
  });
});
