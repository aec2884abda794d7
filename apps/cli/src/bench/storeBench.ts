// The event store: one command (load the stream, decide, append, project inline) on PGlite and
// on PostgreSQL from 4 concurrent clients, and a projection rebuild on PostgreSQL.
import { decideDocument, currentVersion, type DocumentEvent } from '@tradie/domain';
import { foldDocumentStream, projections } from '@tradie/projections';
import { type EventStore, openStore } from '@tradie/store';
import { createDatabase, startPostgres } from '@tradie/testkit/postgres-server';
import { invoiceEvents } from './data.ts';
import type { Figure } from './figures.ts';

async function seed(store: EventStore, from: number, count: number, accountId: string): Promise<string[]> {
  const ids: string[] = [];
  for (let start = from; start < from + count; start += 200) {
    await store.transaction(async (tx) => {
      for (let i = start; i < Math.min(from + count, start + 200); i++) {
        const { streamId, events } = invoiceEvents(i, 4, accountId);
        // Drafted only: every stream can then take commands.
        await tx.append(streamId, 0, events.slice(0, 1));
        ids.push(streamId);
      }
    });
  }
  return ids;
}

/** One command: load, decide (a $1 payment), append with the expected version, project inline — a read and one statement (EventStore.command). */
async function payOne(store: EventStore, streamId: string, n: number, accountId: string): Promise<void> {
  await store.command(async (tx) => {
    const snap = await tx.readStream(streamId);
    const state = foldDocumentStream(snap.events);
    const events: DocumentEvent[] = decideDocument(
      { type: 'RecordPayment', data: { paymentId: `p-${n}`, amount: '1.00', date: '2026-05-01', method: 'cash', reference: '' } },
      state,
    );
    await tx.append(
      streamId,
      snap.version,
      events.map((e) => ({ type: e.type, version: currentVersion(e.type), data: e.data as unknown as Record<string, unknown>, meta: { accountId, at: '2026-05-01T00:00:00.000Z' } })),
      snap.events,
    );
  });
}

let paymentSeq = 0;

async function commandsPerSecond(store: EventStore, streams: string[], clients: number, seconds: number, accountId: string): Promise<number> {
  let done = 0;
  const until = performance.now() + seconds * 1000;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: clients }, async (_, w) => {
      let k = w;
      while (performance.now() < until) {
        // Each client works on its own streams, so no retries skew the figure.
        const s = streams[(k * clients + w) % streams.length]!;
        k++;
        await payOne(store, s, paymentSeq++, accountId);
        done++;
      }
    }),
  );
  return Math.round(done / ((performance.now() - t0) / 1000));
}

const progress = (m: string): void => {
  process.stderr.write(`  store: ${m}\n`);
};

export async function storeFigures(): Promise<Figure[]> {
  const figures: Figure[] = [];
  progress('PGlite');
  const lite = await openStore({}, projections);
  try {
    const streams = await seed(lite, 0, 400, 'bench-pglite');
    await commandsPerSecond(lite, streams, 1, 1, 'bench-pglite');
    figures.push({ name: 'store.command_pglite', value: await commandsPerSecond(lite, streams, 1, 4, 'bench-pglite'), unit: 'commands/s' });
  } finally {
    await lite.close();
  }

  progress('starting PostgreSQL');
  const server = await startPostgres();
  try {
    const url = await createDatabase(server.url, 'bench');
    const pg = await openStore({ databaseUrl: url, poolSize: 8 }, projections);
    try {
      progress('seeding');
      const streams = await seed(pg, 0, 2000, 'bench-pg');
      progress('commands');
      await commandsPerSecond(pg, streams, 4, 1, 'bench-pg');
      figures.push({ name: 'store.command_postgres_4_clients', value: await commandsPerSecond(pg, streams, 4, 5, 'bench-pg'), unit: 'commands/s' });
      // A log of ~40,000 events for the rebuild.
      for (let from = 2000; from < 12_000; from += 1000) {
        await pg.transaction(async (tx) => {
          for (let i = from; i < from + 1000; i++) {
            const { streamId, events } = invoiceEvents(i, 4, 'bench-pg');
            await tx.append(streamId, 0, events);
          }
        });
      }
      progress('rebuild');
      const t0 = performance.now();
      const r = await pg.rebuildProjections();
      const secs = (performance.now() - t0) / 1000;
      figures.push({ name: 'store.rebuild_postgres', value: Math.round(r.events / secs), unit: 'events/s' });
    } finally {
      await pg.close();
    }
  } finally {
    await server.stop();
  }
  return figures;
}
