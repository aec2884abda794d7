// Shared set-up for the documents tests: clients and business settings written the way their own
// features write them (events through the client decider; the business_settings row), so these
// tests do not depend on those routes.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientDecider, clientFieldsSchema, clientStreamId, initialClientState } from '@tradie/domain';
import type { z } from 'zod';
import { toNewEvents } from '../../src/commands.ts';
import type { TestApp } from '../support/testApp.ts';

export type ClientInput = z.input<typeof clientFieldsSchema>;

const meta = (t: TestApp, accountId: string) => ({ accountId, at: t.clock.now().toISOString(), actor: accountId });

/** Adds a client to the account's book (ClientAdded) and answers its id. */
export async function addClient(t: TestApp, accountId: string, input: ClientInput): Promise<string> {
  const id = randomUUID();
  const fields = clientFieldsSchema.parse(input);
  const events = clientDecider.decide({ type: 'AddClient', data: { clientId: id, fields } }, initialClientState);
  await t.deps.store.append(clientStreamId(id), 0, toNewEvents(events, meta(t, accountId)));
  return id;
}

export async function removeClient(t: TestApp, accountId: string, clientId: string): Promise<void> {
  const snap = await t.deps.store.readStream(clientStreamId(clientId));
  await t.deps.store.append(clientStreamId(clientId), snap.version, toNewEvents([{ type: 'ClientRemoved', data: { clientId } }], meta(t, accountId)));
}

/** Writes business settings for the account (only the fields given; the rest keep their defaults). */
export async function setSettings(t: TestApp, accountId: string, fields: Record<string, string | boolean>): Promise<void> {
  const cols = Object.keys(fields);
  const values = Object.values(fields);
  await t.deps.store.db.query(
    `INSERT INTO business_settings (account_id, ${cols.join(', ')}) VALUES ($1, ${cols.map((_, i) => `$${i + 2}`).join(', ')})
     ON CONFLICT (account_id) DO UPDATE SET ${cols.map((c) => `${c} = EXCLUDED.${c}`).join(', ')}`,
    [accountId, ...values],
  );
}

export const line = (description: string, qty: number | string, unit_price: number | string, extra: { tax_included?: boolean; tax_rate?: number | string } = {}) => ({
  description, qty, unit_price, tax_included: extra.tax_included ?? false, tax_rate: extra.tax_rate ?? 0.15,
});

/** The text of a PDF as pdftotext lays it out (poppler-utils). */
export function pdfText(pdf: Buffer | Uint8Array): string {
  const dir = mkdtempSync(join(tmpdir(), 'tradie-doc-pdf-'));
  try {
    const file = join(dir, 'doc.pdf');
    writeFileSync(file, pdf);
    return execFileSync('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Events of one stream, as stored. */
export async function eventTypes(t: TestApp, streamId: string): Promise<string[]> {
  return (await t.deps.store.readStream(streamId)).events.map((e) => e.type);
}

/** A fresh access token (after the test clock moved past the old one's 15 minutes). */
export async function signInAgain(t: TestApp, u: { email: string; password: string }): Promise<string> {
  const r = await t.post('/auth/login', { email: u.email, password: u.password });
  if (r.status !== 200) throw new Error(`login failed: ${r.status} ${r.text}`);
  return r.json.access_token as string;
}
