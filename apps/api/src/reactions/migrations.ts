import type { Migration } from '@tradie/store';

/** This feature's tables, in order. Never edit a migration that has shipped: add a new one. */
export const reactionMigrations: Migration[] = [
  {
    id: 'reactions-001-outbox',
    sql: `
-- What is still to be done because of an event: one row per (reaction, event), written in the
-- transaction that appended the event (reactions/outbox.ts), so a committed event always has its
-- rows and a rolled-back one never does. A row is done (done_at), waiting for its next attempt
-- (next_attempt_at), or given up (done_at and next_attempt_at both NULL, last_error says why).
CREATE TABLE IF NOT EXISTS outbox (
  id               bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  account_id       text        NOT NULL,
  reaction         text        NOT NULL,
  stream_id        text        NOT NULL,
  event_id         uuid        NOT NULL,
  event_position   bigint      NOT NULL,
  event_type       text        NOT NULL,
  payload          jsonb       NOT NULL,
  created_at       timestamptz NOT NULL,
  attempts         integer     NOT NULL DEFAULT 0,
  next_attempt_at  timestamptz,
  last_error       text,
  done_at          timestamptz,
  -- A processor working on the row: others leave it alone until claimed_until (a crashed one's claim lapses).
  claimed_by       text,
  claimed_until    timestamptz,
  CONSTRAINT outbox_reaction_event_uq UNIQUE (reaction, event_id)
);
CREATE INDEX IF NOT EXISTS outbox_due ON outbox (next_attempt_at) WHERE done_at IS NULL;
CREATE INDEX IF NOT EXISTS outbox_stream ON outbox (account_id, stream_id) WHERE done_at IS NULL;
CREATE INDEX IF NOT EXISTS outbox_done ON outbox (done_at) WHERE done_at IS NOT NULL;
`,
  },
];
