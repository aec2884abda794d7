import { describe, expect, it } from 'vitest';
import { deleteDraftConfirm, editability, isDeletableDraft, SENT_CANNOT_CHANGE, type EditableFacts } from './documentEdits.ts';

const doc = (over: Partial<EditableFacts> = {}): EditableFacts => ({ type: 'invoice', status: 'draft', sends: [], payments: [], extra_data: {}, converted_to: null, ...over });
const sent = [{ to: ['a@example.nz'], cc: [], bcc: [], subject: 's', at: null }] as unknown as EditableFacts['sends'];

describe('which documents can be edited', () => {
  it('given an unsent draft (an expired draft quote too), then it can be edited and deleted', () => {
    expect(editability(doc())).toEqual({ editable: true });
    expect(editability(doc({ type: 'quote', status: 'expired' }))).toEqual({ editable: true });
    expect(isDeletableDraft(doc())).toBe(true);
  });

  it('given a sent or issued invoice, then it says why not and offers to void and re-issue it', () => {
    expect(editability(doc({ status: 'sent', sends: sent }))).toEqual({ editable: false, reason: SENT_CANNOT_CHANGE, replace: 'void-and-copy' });
    expect(SENT_CANNOT_CHANGE).toBe("Sent documents can't be changed — void it and issue a new one");
    expect(editability(doc({ status: 'issued' }))).toMatchObject({ editable: false, replace: 'void-and-copy' });
    expect(editability(doc({ status: 'overdue' }))).toMatchObject({ editable: false, replace: 'void-and-copy' });
    expect(isDeletableDraft(doc({ status: 'issued' }))).toBe(false);
  });

  it('given a synced draft, payments, a sent quote or a void document, then each says so', () => {
    expect(editability(doc({ extra_data: { xero_invoice_id: 'x' } }))).toMatchObject({ editable: false, replace: 'void-and-copy', reason: expect.stringContaining('synced to Xero') });
    expect(editability(doc({ status: 'partial', payments: [{}] as unknown as EditableFacts['payments'] }))).toMatchObject({ editable: false, replace: null });
    expect(editability(doc({ type: 'quote', status: 'sent', sends: sent }))).toMatchObject({ editable: false, replace: 'copy', reason: "Sent quotes can't be changed — copy it to a new quote instead" });
    expect(editability(doc({ type: 'quote', status: 'converted', converted_to: 'i1' }))).toMatchObject({ replace: 'copy' });
    expect(editability(doc({ status: 'void' }))).toMatchObject({ editable: false, replace: null });
  });

  it("asks 'Delete draft {reference}?'", () => {
    expect(deleteDraftConfirm('INV-0003')).toBe('Delete draft INV-0003?');
  });
});
