// Reads the API's outbox (DATA_DIR/outbox/*.eml, written when SMTP_URL is not set) back as
// parsed messages, oldest first: for API tests and browser tests that follow an emailed link.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';

export interface OutboxMessage {
  file: string;
  mail: ParsedMail;
  raw: Buffer;
}

export async function readOutbox(dir: string): Promise<OutboxMessage[]> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((n) => n.endsWith('.eml')).sort();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw e;
  }
  return Promise.all(
    names.map(async (name) => {
      const file = join(dir, name);
      const raw = await readFile(file);
      return { file, raw, mail: await simpleParser(raw) };
    }),
  );
}

/** Polls the outbox until a message matches; rejects after `timeoutMs`. */
export async function waitForOutbox(dir: string, predicate: (m: OutboxMessage) => boolean = () => true, timeoutMs = 5_000): Promise<OutboxMessage> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await readOutbox(dir)).find(predicate);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`outbox: no matching message in ${dir} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Every address in a parsed To/Cc/Bcc field, lower-cased. */
export function addressesOf(field: ParsedMail['to']): string[] {
  if (!field) return [];
  const list = Array.isArray(field) ? field : [field];
  return list.flatMap((f) => f.value.flatMap((v) => (v.address ? [v.address.toLowerCase()] : (v.group ?? []).flatMap((g) => (g.address ? [g.address.toLowerCase()] : [])))));
}
