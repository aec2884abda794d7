// The ports the API is built from. main.ts builds the real ones; tests build their own. No
// module in the API reads the clock, the environment or the network except through these.
import type { PdfInput } from '@tradie/pdf';
import type { EventStore } from '@tradie/store';
import type { Config } from './config.ts';
import type { Logger } from './http/problem.ts';
import type { BillingProvider } from './integrations/stripe/index.ts';
import type { ConnectProvider } from './integrations/stripe/connect.ts';
import type { AccountingProvider } from './integrations/xero/port.ts';
import type { Mailer } from './mail/index.ts';
import type { Secrets } from './appKeys.ts';
import type { FileStore } from './files/store.ts';

export interface Clock {
  now(): Date;
}

export interface Ids {
  /** A new unique id (UUIDv7: time-ordered, so new rows land at the end of indexes). */
  uuid(): string;
}

export interface AppDeps {
  config: Config;
  store: EventStore;
  clock: Clock;
  ids: Ids;
  mailer: Mailer;
  secrets: Secrets;
  log: Logger;
  /** Renders a quote or invoice to PDF bytes; packages/pdf's renderDocumentPdf when left out. */
  renderPdf?: (input: PdfInput) => Promise<Buffer>;
  /** Xero (integrations/xero); null or absent when XERO_CLIENT_ID / XERO_CLIENT_SECRET are not set. */
  accounting?: AccountingProvider | null;
  /** Subscription billing (Stripe). Absent or null: billing is not configured (checkout/portal 503, the trial still counts). */
  billing?: BillingProvider | null;
  /** Clients' card payments through the business's own Stripe account (payments/). Absent or null: not available on this server. */
  connect?: ConnectProvider | null;
  /** Uploaded files (receipts); files/store.ts's disk store under DATA_DIR/files when left out. */
  files?: FileStore;
}

export const systemClock: Clock = { now: () => new Date() };
