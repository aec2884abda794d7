// The events of a sequence stream (sequence-{accountId}-{type}) and their schemas. Kept apart from
// references.ts: the screens format references with it, and a schema built at module level would
// bring zod into every screen that does.
import { z } from 'zod';
import { type EventUnion, idField } from '../events/fields.ts';

/** Every event of a sequence stream and the schema of its data. */
export const sequenceEventSchemas = {
  ReferenceAllocated: z
    .object({ documentId: idField.describe('the document the number went to'), number: z.number().int().positive(), reference: z.string() })
    .describe('The next number handed out; the stream version is that number.'),
} as const;

export type SequenceEvent = EventUnion<typeof sequenceEventSchemas>;
