// Settings → Business & Logo: whether the business is registered for GST (business settings
// `gst_registered`). Saved as soon as it is switched, on its own (not by Save Settings). Off: no GST
// on anything new, and invoices are titled 'Invoice'. On: GST as each line says, tax invoices, and
// nothing is sent until the GST number (Business Details) is there. What was sent keeps its GST.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, errorDetail } from '../../api/client.ts';
import { Card } from '../../ui/Card.tsx';
import { SwitchField } from '../../ui/SwitchField.tsx';
import { businessSettingsKey, businessSettingsQuery } from '../shared/queries.ts';
import { saveGstRegistration } from './queries.ts';

export const GST_REGISTRATION_TEXT = {
  on: 'Your quotes and invoices carry GST, and invoices are tax invoices showing your GST number.',
  numberNeeded: 'Add your GST number in Business Details: nothing can be sent without it.',
  off: "No GST is added to your quotes and invoices, and invoices are titled 'Invoice'.",
  kept: 'Quotes and invoices already sent keep the GST they were sent with; drafts take the change when you next save them.',
  failed: 'Could not save your GST registration. Please try again.',
} as const;

export function GstRegistrationCard() {
  const id = useId();
  const queryClient = useQueryClient();
  const settings = useQuery(businessSettingsQuery(api));
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // The switch moves at once; the saved value takes over when the server answers (or the save fails).
  const [chosen, setChosen] = useState<boolean | null>(null);
  const current = chosen ?? settings.data?.gst_registered;

  const change = (value: boolean) => {
    if (saving) return;
    setSaving(true);
    setChosen(value);
    setError(null);
    saveGstRegistration(api, value).then(
      (saved) => {
        queryClient.setQueryData(businessSettingsKey, saved);
        setChosen(null);
        setSaving(false);
      },
      (e: unknown) => {
        setError(errorDetail(e) ?? GST_REGISTRATION_TEXT.failed);
        setChosen(null);
        setSaving(false);
      },
    );
  };

  return (
    <Card titleId={`${id}-title`} title="GST Registration">
      <SwitchField
        label="Registered for GST"
        hintId={`${id}-hint`}
        hint={
          current === undefined ? null : (
            <>
              {current ? GST_REGISTRATION_TEXT.on : GST_REGISTRATION_TEXT.off}
              {current && settings.data?.gst_number.trim() === '' ? ` ${GST_REGISTRATION_TEXT.numberNeeded}` : ''} {GST_REGISTRATION_TEXT.kept}
            </>
          )
        }
        checked={current ?? false}
        disabled={current === undefined || saving}
        onChange={change}
        error={error}
      />
    </Card>
  );
}
