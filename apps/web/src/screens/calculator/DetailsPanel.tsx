// The dates and notes of the draft being edited: shown in the calculator's edit mode only (a new
// document is dated today, with the due date from the client's terms).
import './details-panel.css';
import { memo } from 'react';
import { Card } from '../../ui/Card.tsx';
import { FormField } from '../../ui/FormField.tsx';
import type { DocumentType } from './calculatorModel.ts';
import type { DocumentDetails } from './editDocument.ts';

export const DetailsPanel = memo(function DetailsPanel({ type, details, onChange }: { type: DocumentType; details: DocumentDetails; onChange: (details: DocumentDetails) => void }) {
  const set = (field: keyof DocumentDetails) => (value: string) => onChange({ ...details, [field]: value });
  const second = type === 'quote' ? { id: 'calc-valid-until', label: 'Valid until', field: 'validUntil' as const } : { id: 'calc-due-date', label: 'Due date', field: 'dueDate' as const };
  return (
    <Card titleId="calc-details-title" title="Dates and notes">
      <div className="calc-details">
        <FormField id="calc-issue-date" label="Issue date">
          {() => <input id="calc-issue-date" className="input" type="date" required value={details.issueDate} onChange={(e) => set('issueDate')(e.target.value)} />}
        </FormField>
        <FormField id={second.id} label={second.label}>
          {() => <input id={second.id} className="input" type="date" min={details.issueDate || undefined} value={details[second.field]} onChange={(e) => set(second.field)(e.target.value)} />}
        </FormField>
      </div>
      <FormField id="calc-notes" label="Notes" hint="Shown on the PDF">
        {(describedBy) => (
          <textarea id="calc-notes" className="input" rows={3} maxLength={5000} aria-describedby={describedBy} value={details.notes} onChange={(e) => set('notes')(e.target.value)} />
        )}
      </FormField>
    </Card>
  );
});
