// Every fixture in fixtures/ replays to the reports worked out by hand beside it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { annualSummary, checkRange, gstReport, reportRowsFromEvents } from '@tradie/domain';
import { readNdjson, type FixtureExpectation } from '../src/fixtures.ts';

const dir = join(import.meta.dirname, '../../../fixtures');
const fixtures = readdirSync(dir).filter((f) => f.endsWith('.ndjson')).sort();

describe('fixtures replay to their hand-worked reports', () => {
  it('there are at least six fixtures, each with its expectation and its working', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(6);
    for (const f of fixtures) {
      expect(existsSync(join(dir, f.replace(/\.ndjson$/, '.expected.json'))), `${f} needs .expected.json`).toBe(true);
      expect(existsSync(join(dir, f.replace(/\.ndjson$/, '.md'))), `${f} needs its working in .md`).toBe(true);
    }
  });

  for (const f of fixtures) {
    describe(f, () => {
      const expected = JSON.parse(readFileSync(join(dir, f.replace(/\.ndjson$/, '.expected.json')), 'utf8')) as FixtureExpectation;
      const rows = reportRowsFromEvents(readNdjson(join(dir, f)));
      for (const g of expected.gst ?? []) {
        it(`GST report ${g.from} – ${g.to} (${g.basis ?? 'invoice'} basis)`, () => {
          expect(gstReport(rows, checkRange(g.from, g.to), g.basis ?? 'invoice')).toEqual(g.report);
        });
      }
      for (const a of expected.annual ?? []) {
        it(`annual summary ${a.year}`, () => {
          expect(annualSummary(rows, a.year)).toEqual(a.report);
        });
      }
    });
  }
});
