// The client book: fields, validation, and the client decider.
// Streams: client-{id}. Events: ClientAdded, ClientUpdated, ClientRemoved.
import { z } from 'zod';
import { DEFAULT_PAYMENT_TERMS } from '../dates/paymentTerms.ts';
import { paymentTermsSchema } from '../dates/paymentTermsSchema.ts';
import type { Decider } from '../decider.ts';
import { type DomainError, assertNever, conflict, notFound } from '../errors.ts';
import type { ClientEvent, storedClientFields } from './events.ts';
import { type FieldWarning, identifierWarnings } from '../identifiers/nzIdentifiers.ts';

export const clientStreamId = (clientId: string): string => `client-${clientId}`;

export const CLIENT_LIMITS = { name: 200, notes: 5000, short: 200, address: 1000 } as const;

const optionalText = (max: number, label: string) =>
  z
    .string({ error: `${label} must be text` })
    .max(max, { error: `${label} must be at most ${max} characters` })
    .optional()
    .transform((s) => (s ?? '').trim());

/** Client fields as the API takes them. Optional fields are stored and returned as '' when blank. Unknown fields are ignored. */
export const clientFieldsSchema = z.object({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, { error: 'Name is required' })
    .max(CLIENT_LIMITS.name, { error: `Name must be at most ${CLIENT_LIMITS.name} characters` }),
  email: optionalText(254, 'Email').refine((s) => s === '' || z.email().safeParse(s).success, { error: 'Please enter a valid email address' }),
  phone: optionalText(50, 'Phone'),
  address: optionalText(CLIENT_LIMITS.address, 'Address'),
  is_business: z
    .union([z.enum(['true', 'false']), z.boolean()], { error: "is_business must be 'true' or 'false'" })
    .optional()
    .transform((v): 'true' | 'false' => (v === true || v === 'true' ? 'true' : 'false')),
  business_name: optionalText(CLIENT_LIMITS.short, 'Business name'),
  company_number: optionalText(50, 'NZBN / Company Number'),
  gst_number: optionalText(50, 'GST number'),
  notes: optionalText(CLIENT_LIMITS.notes, 'Notes'),
  default_payment_terms: paymentTermsSchema
    .optional()
    .transform((v) => v ?? DEFAULT_PAYMENT_TERMS),
});

export type ClientFields = z.output<typeof clientFieldsSchema>;

export interface Client extends ClientFields {
  id: string;
}

export { clientDisplayName } from './displayName.ts';

export const clientWarnings = (f: Pick<ClientFields, 'gst_number' | 'company_number'>): FieldWarning[] =>
  identifierWarnings({ gst_number: f.gst_number, company_number: f.company_number });

export type { ClientEvent } from './events.ts';

// The fields a client event stores are the fields the book validates (checked when compiling).
void (true satisfies (typeof storedClientFields extends z.ZodType<ClientFields> ? true : false));

export type ClientState = { status: 'none' } | { status: 'active'; client: Client } | { status: 'removed'; client: Client };

export const initialClientState: ClientState = { status: 'none' };

export function evolveClient(state: ClientState, event: ClientEvent): ClientState {
  switch (event.type) {
    case 'ClientAdded':
    case 'ClientUpdated': {
      const { clientId, ...fields } = event.data;
      return { status: 'active', client: { id: clientId, ...fields } };
    }
    case 'ClientRemoved':
      return state.status === 'none' ? state : { status: 'removed', client: state.client };
    default:
      return assertNever(event);
  }
}

// ---- commands -----------------------------------------------------------------------------

export type ClientCommand =
  | { type: 'AddClient'; data: { clientId: string; fields: ClientFields } }
  | { type: 'UpdateClient'; data: { fields: ClientFields } }
  | { type: 'RemoveClient' };

const clientNotFound = (): DomainError => notFound('Client not found');

export function decideClient(command: ClientCommand, state: ClientState): ClientEvent[] {
  switch (command.type) {
    case 'AddClient':
      if (state.status !== 'none') throw conflict('This client already exists');
      return [{ type: 'ClientAdded', data: { clientId: command.data.clientId, ...command.data.fields } }];
    case 'UpdateClient':
      if (state.status !== 'active') throw clientNotFound();
      return [{ type: 'ClientUpdated', data: { clientId: state.client.id, ...command.data.fields } }];
    case 'RemoveClient':
      if (state.status !== 'active') throw clientNotFound();
      return [{ type: 'ClientRemoved', data: { clientId: state.client.id } }];
    default:
      return assertNever(command);
  }
}

export const clientDecider = { decide: decideClient, evolve: evolveClient, initialState: (): ClientState => initialClientState } satisfies Decider<ClientCommand, ClientEvent, ClientState>;
