// The hand-worked purchases fixture against the independent purchases oracle: the costs as they
// stand at the end of the log (read here from the raw events, without the domain), summed by the
// oracle, give the Boxes 11–15 written in the fixture's expectation, on both bases.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type OracleCost, oraclePurchaseBoxes } from '../src/oracle/purchases.ts';

const dir = join(import.meta.dirname, '../../../fixtures');
const events = readFileSync(join(dir, 'purchases-two-months.ndjson'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '' && !l.startsWith('//'))
  .map((l) => JSON.parse(l) as { stream: string; type: string; data: Record<string, unknown> });
const expected = JSON.parse(readFileSync(join(dir, 'purchases-two-months.expected.json'), 'utf8')) as {
  gst: { from: string; to: string; basis: 'invoice' | 'payments'; report: { gst_return: Record<string, number> } }[];
};

/** The last version of each cost stream; a removed cost is gone. */
function costsAtEnd(): OracleCost[] {
  const last = new Map<string, OracleCost | null>();
  for (const e of events) {
    if (!e.stream.startsWith('cost-')) continue;
    const d = e.data;
    last.set(
      e.stream,
      e.type === 'CostRemoved'
        ? null
        : { amount: String(d['amount']), gst: d['gst'] as OracleCost['gst'], held: d['supplyInformationHeld'] === true, credit: d['credit'] === true, date: String(d['date']), paidDate: (d['paidDate'] as string | null) ?? null, category: String(d['category']) },
    );
  }
  return [...last.values()].filter((c): c is OracleCost => c !== null);
}

const cents = (dollars: number): bigint => BigInt(Math.round(dollars * 100));

describe('purchases-two-months fixture', () => {
  for (const g of expected.gst) {
    it(`Boxes 11–15 ${g.from} – ${g.to} (${g.basis} basis) equal the oracle`, () => {
      const boxes = g.report.gst_return;
      const want = oraclePurchaseBoxes(costsAtEnd(), g.from, g.to, g.basis, true, cents(boxes['box10']!));
      expect({ box11: cents(boxes['box11']!), box12: cents(boxes['box12']!), box13: cents(boxes['box13']!), box14: cents(boxes['box14']!), box15: cents(boxes['box15']!) }).toEqual(want);
    });
  }
});
