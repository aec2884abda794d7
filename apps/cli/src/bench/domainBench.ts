// The pure domain: totals of a 1,000-line document, and replaying an event log in memory.
import { documentTotals, reportRowsFromEvents, gstReport, checkRange, type LoggedEvent } from '@tradie/domain';
import { benchLines, invoiceEvents } from './data.ts';
import { type Figure, median, round } from './figures.ts';

export async function domainFigures(): Promise<Figure[]> {
  const lines = benchLines(1000);
  for (let i = 0; i < 20; i++) documentTotals(lines);
  const times: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t0 = performance.now();
    documentTotals(lines);
    times.push(performance.now() - t0);
  }

  const log: LoggedEvent[] = [];
  for (let i = 0; i < 20_000; i++) {
    const { streamId, events } = invoiceEvents(i, 3);
    for (const e of events) log.push({ stream: streamId, type: e.type, version: e.version, data: e.data, meta: e.meta });
  }
  // Warmed up on the whole log (the optimising compiler sees every event type and stream size),
  // then the median of 5 runs: a run that shares the CPUs with other work weighs less.
  gstReport(reportRowsFromEvents(log), checkRange('2025-04-01', '2026-03-31'));
  const runs: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const rows = reportRowsFromEvents(log);
    gstReport(rows, checkRange('2025-04-01', '2026-03-31'));
    runs.push(performance.now() - t0);
  }
  return [
    { name: 'domain.totals_1000_lines', value: round(median(times), 3), unit: 'ms' },
    { name: 'domain.replay_in_memory', value: Math.round(log.length / (median(runs) / 1000)), unit: 'events/s' },
  ];
}
