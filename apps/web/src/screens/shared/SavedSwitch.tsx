// A client's on/off setting that is saved on the server as it is switched ('No reminders for this
// client', 'Construction client'): the server's answer, the save, and the switch between them.
import { useState, type ReactNode } from 'react';
import type { Command } from './command.ts';
import { SwitchField } from '../../ui/SwitchField.tsx';

interface SavedSwitchProps<TData> {
  /** The server's answer as it loads: nothing shows when it could not be read. */
  query: { isPending: boolean; isError: boolean };
  /** The saved state, once the answer is in (off until then). */
  saved: boolean | undefined;
  save: Command<boolean, TData>;
  label: ReactNode;
  hintId: string;
  /** What the state shown means. */
  hint: (checked: boolean) => ReactNode;
}

export function SavedSwitch<TData>({ query, saved, save, label, hintId, hint }: SavedSwitchProps<TData>) {
  // The switch moves in the same render as the tap (a controlled checkbox would otherwise snap back
  // until the mutation's pending state arrives), and goes back to the server's answer when it settles.
  const [wanted, setWanted] = useState<boolean | null>(null);
  if (query.isError) return null;
  const checked = wanted ?? (save.pending ? (save.input ?? false) : (saved ?? false));
  return (
    <SwitchField
      label={label}
      hintId={hintId}
      hint={hint(checked)}
      checked={checked}
      disabled={query.isPending || save.pending}
      onChange={(on) => {
        setWanted(on);
        save.run(on, () => setWanted(null));
      }}
      error={save.error}
    />
  );
}
