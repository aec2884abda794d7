import { describe, expect, it } from 'vitest';
import { documentDecider, documentFigures, foldDocument, type DocumentCommand, type DocumentView, type DraftInput } from './document.ts';
import type { DocumentEvent } from './events.ts';
import { linesSchema } from './lines.ts';
import { specFor } from '../../test/specification.ts';

const given = specFor(documentDecider);
const lines = linesSchema.parse([{ description: 'Labour', qty: 2, unit_price: 100 }]); // 200 + GST 30 = 230
const draftInput: DraftInput = {
  documentId: 'd1', type: 'invoice', number: 1, reference: 'INV-0001', client: null, lines, gstRounding: 'total', issueDate: '2026-05-04', paymentTerms: '7 days',
};
const drafted = documentDecider.decide({ type: 'DraftDocument', data: draftInput }, { status: 'none' })[0]!;
const sent: DocumentEvent = { type: 'DocumentSent', data: { documentId: 'd1', to: ['jo@example.com'], cc: [], bcc: [], subject: 'Invoice' } };
const reminded: DocumentEvent = { type: 'ReminderSent', data: { documentId: 'd1', stepId: 'due', to: ['jo@example.com'], subject: 'Due today', balance: '230.00' } };

describe('payment reminders on an invoice', () => {
  it('records a delivered reminder with the balance it stated, and a refused one with the server answer', () => {
    given(drafted, sent)
      .when({ type: 'RecordReminder', data: { stepId: 'due', to: ['jo@example.com'], subject: 'Due today', balance: '230.00', outcome: 'delivered', detail: null } })
      .then([reminded]);
    given(drafted, sent)
      .when({ type: 'RecordReminder', data: { stepId: 'd7', to: ['jo@example.com'], subject: 'Overdue', balance: '230.00', outcome: 'failed', detail: '550 mailbox unavailable' } })
      .then([{ type: 'ReminderNotDelivered', data: { documentId: 'd1', stepId: 'd7', to: ['jo@example.com'], subject: 'Overdue', outcome: 'failed', detail: '550 mailbox unavailable' } }]);
  });

  it('keeps every reminder in order on the view, and a refused one is never a delivered one', () => {
    const failed: DocumentEvent = { type: 'ReminderNotDelivered', data: { documentId: 'd1', stepId: 'd7', to: ['jo@example.com'], subject: 'Overdue', outcome: 'failed', detail: 'no such mailbox' } };
    const v = foldDocument([drafted, sent, { ...reminded, meta: { at: '2026-05-11T20:00:00.000Z' } }, failed]) as DocumentView;
    expect(v.reminders.map((r) => [r.stepId, r.outcome, r.at])).toEqual([['due', 'delivered', '2026-05-11T20:00:00.000Z'], ['d7', 'failed', null]]);
    // A reminder changes no money and no status.
    expect(documentFigures(v).balanceCents).toBe(23000n);
    expect(v.status).toBe('sent');
  });

  it('refuses a draft, a quote and a void invoice', () => {
    const cmd: DocumentCommand = { type: 'RecordReminder', data: { stepId: 'due', to: ['jo@example.com'], subject: 's', balance: '230.00', outcome: 'delivered', detail: null } };
    given(drafted).when(cmd).thenThrows('CONFLICT', /draft/);
    const quote = documentDecider.decide({ type: 'DraftDocument', data: { ...draftInput, type: 'quote', reference: 'QTE-0001' } }, { status: 'none' })[0]!;
    given(quote).when(cmd).thenThrows('CONFLICT', /Quotes/);
    given(drafted, sent, { type: 'DocumentVoided', data: { documentId: 'd1', reason: 'x' } }).when(cmd).thenThrows('CONFLICT', /void/);
  });

  it('pauses and resumes once each (asking twice changes nothing)', () => {
    given(drafted, sent).when({ type: 'PauseReminders' }).then([{ type: 'RemindersPaused', data: { documentId: 'd1' } }]);
    given(drafted, sent, { type: 'RemindersPaused', data: { documentId: 'd1' } }).when({ type: 'PauseReminders' }).then([]);
    given(drafted, sent, { type: 'RemindersPaused', data: { documentId: 'd1' } }).when({ type: 'ResumeReminders' }).then([{ type: 'RemindersResumed', data: { documentId: 'd1' } }]);
    given(drafted, sent).when({ type: 'ResumeReminders' }).then([]);
  });
});
