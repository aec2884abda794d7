import type { Migration } from '@tradie/store';

/** This feature's tables, in order. Never edit a migration that has shipped: add a new one. */
export const clientLinkMigrations: Migration[] = [
  {
    id: 'client-links-001',
    sql: `
-- The links a client opens without signing in (/q/{token}, /i/{token}). Only the token's SHA-256
-- finds a link; the token itself is kept AES-256-GCM sealed (secretBox.ts) so the business can
-- copy the same address again. The events of the document stream say when a link was issued or
-- withdrawn; this row is what a public request is checked against.
CREATE TABLE IF NOT EXISTS client_links (
  id                text        PRIMARY KEY,
  account_id        text        NOT NULL,
  document_id       text        NOT NULL,
  kind              text        NOT NULL CHECK (kind IN ('quote', 'invoice')),
  token_sha256      text        NOT NULL UNIQUE,
  token_enc         text        NOT NULL,
  issued_at         timestamptz NOT NULL,
  expires_on        date        NOT NULL,
  withdrawn_at      timestamptz,
  withdrawn_reason  text,
  document_version  integer     NOT NULL
);
CREATE INDEX IF NOT EXISTS client_links_document ON client_links (account_id, document_id);

-- The page's beacon: at most one counted view per link per ten minutes, at most 100 kept per link.
CREATE TABLE IF NOT EXISTS client_link_views (
  link_id     text        NOT NULL,
  account_id  text        NOT NULL,
  at          timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS client_link_views_link ON client_link_views (link_id, at);

-- A client's finger signature on an acceptance; the event keeps only its SHA-256.
CREATE TABLE IF NOT EXISTS client_signatures (
  link_id      text        NOT NULL,
  account_id   text        NOT NULL,
  document_id  text        NOT NULL,
  png          bytea       NOT NULL,
  sha256       text        NOT NULL,
  created_at   timestamptz NOT NULL,
  PRIMARY KEY (account_id, sha256)
);
CREATE INDEX IF NOT EXISTS client_signatures_document ON client_signatures (account_id, document_id);

-- The business was told of a client's answer (the notify reaction): one row per event, so a
-- reaction run again after its mail went does not send it twice.
CREATE TABLE IF NOT EXISTS client_answer_notices (
  event_id    text        PRIMARY KEY,
  account_id  text        NOT NULL,
  sent_at     timestamptz NOT NULL
);
`,
  },
  {
    id: 'client-links-002-notice-windows',
    sql: `
-- Whether an answer's notice went ('sent'), or nothing could go to the business's unconfirmed
-- address ('not_sent'); sent_at is when it was settled either way.
ALTER TABLE client_answer_notices ADD COLUMN IF NOT EXISTS outcome text NOT NULL DEFAULT 'sent';

-- At most one notice of a client's answers per quote per hour (clientLinks/notify.ts): when the
-- last one went, and the lease of the process sending the next.
CREATE TABLE IF NOT EXISTS client_notice_windows (
  document_id    text        PRIMARY KEY,
  account_id     text        NOT NULL,
  last_sent_at   timestamptz,
  claimed_until  timestamptz
);
`,
  },
  {
    id: 'client-links-003-acceptance-confirmations',
    sql: `
-- The email confirming a client's acceptance to them, with the signed PDF (clientLinks/
-- confirmAcceptance.ts): settled once per acceptance, as 'sent', 'no_address' (the client has no
-- email address) or 'not_sent' (refused: detail says why). Nothing here says sent unless it went.
CREATE TABLE IF NOT EXISTS client_acceptance_confirmations (
  event_id     text        PRIMARY KEY,
  account_id   text        NOT NULL,
  document_id  text        NOT NULL,
  outcome      text        NOT NULL CHECK (outcome IN ('sent', 'no_address', 'not_sent')),
  detail       text,
  sent_to      text,
  settled_at   timestamptz NOT NULL
);
CREATE INDEX IF NOT EXISTS client_acceptance_confirmations_document ON client_acceptance_confirmations (account_id, document_id);
`,
  },
  {
    id: 'client-links-004-notice-window-holder',
    sql: `
-- The notice window's lease names its holder, like every leased table (the store's lease helpers):
-- only the process holding it gives it back.
ALTER TABLE client_notice_windows ADD COLUMN IF NOT EXISTS claimed_by text;
`,
  },
];
