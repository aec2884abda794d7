// Reading event logs written as NDJSON: one event per line,
// {"stream":"document-…","type":"DocumentDrafted","version":1,"data":{…},"meta":{"accountId":"…","at":"…"}}.
import { readFileSync } from 'node:fs';
import type { LoggedEvent } from '@tradie/domain';

export function readNdjson(path: string): LoggedEvent[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .map((line, i) => ({ line: line.trim(), n: i + 1 }))
    .filter(({ line }) => line !== '' && !line.startsWith('//'))
    .map(({ line, n }) => {
      try {
        return JSON.parse(line) as LoggedEvent;
      } catch (e) {
        throw new Error(`${path}:${n}: not valid JSON (${(e as Error).message})`, { cause: e });
      }
    });
}

/** What a fixture must replay to: any number of GST reports and annual summaries. */
export interface FixtureExpectation {
  gst?: { from: string; to: string; basis?: 'invoice' | 'payments'; report: unknown }[];
  annual?: { year: number; report: unknown }[];
}
