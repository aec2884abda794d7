// @vitest-environment jsdom
// Record payment: what the API answers is handed on to the screen, with the warning it carries
// when the payment was kept here only (Xero has the invoice voided), so the tradie reads it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACCOUNTING_MESSAGES } from '@tradie/contracts';
import { createHarness } from '../shared/testKit.tsx';
import { PaymentForm } from './PaymentForm.tsx';

const h = createHarness();
beforeEach(() => h.setUp());
afterEach(() => h.tearDown());

describe('Invoice detail → Record payment', () => {
  it("hands on the answer's warning with the amount, and nothing when there is none", async () => {
    const onDone = vi.fn();
    let answer: { warning?: string } = { warning: ACCOUNTING_MESSAGES.paymentVoidedThere };
    const onSubmit = vi.fn(() => Promise.resolve(answer));
    h.render(<PaymentForm balance={465.75} onSubmit={onSubmit} onDone={onDone} onCancel={() => undefined} />);
    h.click(h.button('Save payment'));
    await h.until(() => expect(onDone).toHaveBeenCalledWith('465.75', ACCOUNTING_MESSAGES.paymentVoidedThere));

    answer = {};
    onDone.mockClear();
    h.render(<PaymentForm key="second" balance={100} onSubmit={onSubmit} onDone={onDone} onCancel={() => undefined} />);
    h.click(h.button('Save payment'));
    await h.until(() => expect(onDone).toHaveBeenCalledWith('100.00', undefined));
  });
});
