// Settings → Business & Logo: how GST is rounded on new quotes and invoices (business settings
// `gst_rounding`). Saved as soon as it is chosen, on its own (not by Save Settings). One method per
// GST period: a change waits for the start of the next period (`gst_rounding_next`), and the card
// says from when; documents already made keep the rounding they were made with.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { BusinessSettingsRecord } from '@tradie/contracts';
import { api, errorDetail } from '../../api/client.ts';
import './choiceList.css';
import { Card } from '../../ui/Card.tsx';
import { businessSettingsQuery, settingsKeys } from './queries.ts';

type Rounding = BusinessSettingsRecord['gst_rounding'];

export const GST_ROUNDING_OPTIONS: ReadonlyArray<{ value: Rounding; label: string; explanation: string }> = [
  { value: 'total', label: 'Once per invoice (recommended)', explanation: 'GST is worked out on the invoice total and rounded once.' },
  { value: 'line', label: 'On each line', explanation: 'GST is rounded on every line, then added up; the total can differ by a cent.' },
];

export function GstRoundingCard() {
  const id = useId();
  const queryClient = useQueryClient();
  const settings = useQuery(businessSettingsQuery(api));
  const [saving, setSaving] = useState(false);
  const [note, setNote] = useState<{ text: string; failure: boolean } | null>(null);
  // The choice shows at once; the saved value takes over when the server answers (or the save fails).
  const [chosen, setChosen] = useState<Rounding | null>(null);
  // A change waiting for the next GST period shows as the choice; the card says from when.
  const waiting = settings.data?.gst_rounding_next ?? null;
  const current = chosen ?? waiting?.rounding ?? settings.data?.gst_rounding;
  const said: Record<Rounding, string> = { total: 'once per invoice', line: 'on each line' };

  const choose = (value: Rounding) => {
    if (value === current || saving) return;
    setSaving(true);
    setChosen(value);
    setNote(null);
    api.put<BusinessSettingsRecord>('/business-settings', { gst_rounding: value }).then(
      (saved) => {
        queryClient.setQueryData(settingsKeys.all, saved);
        const warning = saved.warnings.find((w) => w.field === 'gst_rounding')?.message;
        setNote({ text: warning ? `Saved. ${warning}` : 'Saved.', failure: false });
        setChosen(null);
        setSaving(false);
      },
      (e: unknown) => {
        setNote({ text: errorDetail(e) ?? 'Could not save the GST rounding. Please try again.', failure: true });
        setChosen(null);
        setSaving(false);
      },
    );
  };

  return (
    <Card titleId={`${id}-title`} title="GST Rounding">
      <fieldset className="choice-group choice-list" aria-describedby={`${id}-hint`} aria-busy={saving}>
        <legend className="field__label">Round GST on new quotes and invoices</legend>
        <div className="choice-list__options">
          {GST_ROUNDING_OPTIONS.map((o) => (
            <label key={o.value} className="choice">
              <input type="radio" name={`${id}-rounding`} value={o.value} checked={current === o.value} onChange={() => choose(o.value)} disabled={!current || saving} />
              <span className="choice-list__text">
                <span>{o.label}</span>
                <span className="choice-list__detail">{o.explanation}</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {waiting && settings.data && !saving && (
        <p className="callout field__hint" data-testid="gst-rounding-waiting">
          GST rounded {said[waiting.rounding]}: {waiting.applies_from}. Until then, new quotes and invoices have GST rounded {said[settings.data.gst_rounding]}.
        </p>
      )}
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
