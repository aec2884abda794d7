// Settings → Business & Logo: how GST is rounded on new quotes and invoices (business settings
// `gst_rounding`). Saved as soon as it is chosen, on its own (not by Save Settings): documents
// already made keep the rounding they were made with, and the server warns that the choice should
// stay the same for a whole GST period.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import type { BusinessSettingsRecord } from '@tradie/contracts';
import { api } from '../../api/client.ts';
import { Card } from '../../ui/Card.tsx';
import { RadioGroup } from '../../ui/RadioGroup.tsx';
import { useCommand } from '../shared/command.ts';
import { saveBusinessSettings } from './queries.ts';
import { businessSettingsKey, businessSettingsQuery } from '../shared/queries.ts';

type Rounding = BusinessSettingsRecord['gst_rounding'];

export const GST_ROUNDING_OPTIONS: ReadonlyArray<{ value: Rounding; label: string; explanation: string }> = [
  { value: 'total', label: 'Once per invoice (recommended)', explanation: 'GST is worked out on the invoice total and rounded once.' },
  { value: 'line', label: 'On each line', explanation: 'GST is rounded on every line, then added up; the total can differ by a cent.' },
];

export function GstRoundingCard() {
  const id = useId();
  const queryClient = useQueryClient();
  const settings = useQuery(businessSettingsQuery(api));
  const save = useCommand({
    run: (value: Rounding) => saveBusinessSettings(api, { gst_rounding: value }),
    failed: 'Could not save the GST rounding. Please try again.',
    onDone: (saved) => queryClient.setQueryData(businessSettingsKey, saved),
  });
  const saving = save.pending;
  // The choice shows at once; the saved value takes over when the server answers (or the save fails).
  const current = save.input ?? settings.data?.gst_rounding;
  const warning = save.result?.warnings.find((w) => w.field === 'gst_rounding')?.message;
  const note = save.error ? { text: save.error, failure: true } : save.result ? { text: warning ? `Saved. ${warning}` : 'Saved.', failure: false } : null;

  const choose = (value: Rounding) => {
    if (value !== current && !saving) save.run(value);
  };

  return (
    <Card titleId={`${id}-title`} title="GST Rounding">
      <RadioGroup
        look="list"
        name={`${id}-rounding`}
        legend="Round GST on new quotes and invoices"
        options={GST_ROUNDING_OPTIONS.map((o) => ({ value: o.value, label: o.label, detail: o.explanation }))}
        value={current}
        onChange={choose}
        disabled={!current || saving}
        aria-describedby={`${id}-hint`}
        aria-busy={saving}
      />
      <p id={`${id}-hint`} className="field__hint">
        Quotes and invoices already made keep the rounding they were made with; PDFs, reports and exports follow each one.
      </p>
      {note && (
        <p className={note.failure ? 'callout callout--warning field__warning' : 'callout field__hint'} role={note.failure ? 'alert' : 'status'}>
          {note.text}
        </p>
      )}
    </Card>
  );
}
