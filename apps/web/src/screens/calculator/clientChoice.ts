// The calculator's client choice: an existing client, none, or 'Add New Client'.
import { clientDisplayName } from '@tradie/domain';

export type ClientChoice = { kind: 'none' } | { kind: 'existing'; id: string } | { kind: 'new' };

export interface PickerClient {
  id: string;
  name: string;
  email: string;
  is_business: 'true' | 'false';
  business_name: string;
}

export const NO_CLIENT_LABEL = 'No client';
export const ADD_NEW_CLIENT_LABEL = 'Add New Client';

/** Lower case without accents, so 'whangarei' finds 'Whangārei'. */
export const foldText = (s: string): string =>
  s
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase();

export interface PickerOption {
  id: string;
  label: string;
  /** A second line (the email) to tell similar names apart. */
  hint: string;
  choice: ClientChoice;
}

/** How many matching clients the list shows at once; typing narrows it. */
export const MAX_SHOWN_CLIENTS = 50;

/**
 * The options for what was typed: 'No client' first, the matching clients by their display name
 * ('business_name (name)' for a business with a business name), then 'Add New Client'.
 */
export function pickerOptions(clients: readonly PickerClient[], query: string): { options: PickerOption[]; hidden: number } {
  const q = foldText(query.trim());
  const matches = clients
    .map((c) => ({ c, label: clientDisplayName(c) }))
    .filter(({ c, label }) => q === '' || foldText(label).includes(q) || foldText(c.email).includes(q));
  const shown = matches.slice(0, MAX_SHOWN_CLIENTS);
  return {
    options: [
      { id: 'none', label: NO_CLIENT_LABEL, hint: '', choice: { kind: 'none' } },
      ...shown.map(({ c, label }) => ({ id: `c-${c.id}`, label, hint: c.email, choice: { kind: 'existing', id: c.id } as ClientChoice })),
      { id: 'new', label: ADD_NEW_CLIENT_LABEL, hint: '', choice: { kind: 'new' } },
    ],
    hidden: matches.length - shown.length,
  };
}

/** What the picker's field shows for a choice. */
export function choiceLabel(choice: ClientChoice, clients: readonly PickerClient[]): string {
  if (choice.kind === 'none') return '';
  if (choice.kind === 'new') return ADD_NEW_CLIENT_LABEL;
  const c = clients.find((x) => x.id === choice.id);
  return c ? clientDisplayName(c) : '';
}
