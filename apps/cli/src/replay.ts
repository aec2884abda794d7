// npm run replay -- fixtures/X.ndjson --from 2026-04-01 --to 2026-06-30 [--basis payments]
// npm run replay -- fixtures/X.ndjson --tax-year 2026
// Folds the events in memory with the domain's own evolve and prints the report as JSON: the
// same numbers the API gives for the same events.
import { parseArgs } from 'node:util';
import { DomainError, annualSummary, checkRange, checkTaxYear, gstReport, reportRowsFromEvents, type GstBasis } from '@tradie/domain';
import { readNdjson } from './fixtures.ts';

const usage = `Usage:
  npm run replay -- <events.ndjson> --from YYYY-MM-DD --to YYYY-MM-DD [--basis invoice|payments]
  npm run replay -- <events.ndjson> --tax-year 2026`;

try {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { from: { type: 'string' }, to: { type: 'string' }, 'tax-year': { type: 'string' }, basis: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const file = positionals[0];
  if (values.help || !file) {
    console.log(usage);
    process.exit(values.help ? 0 : 2);
  }
  const rows = reportRowsFromEvents(readNdjson(file));
  if (values['tax-year'] !== undefined) {
    console.log(JSON.stringify(annualSummary(rows, checkTaxYear(values["tax-year"])), null, 2));
  } else {
    const basis = (values.basis ?? 'invoice') as GstBasis;
    if (basis !== 'invoice' && basis !== 'payments') throw new DomainError('VALIDATION', '--basis is invoice or payments');
    console.log(JSON.stringify(gstReport(rows, checkRange(values.from, values.to), basis), null, 2));
  }
} catch (e) {
  console.error(e instanceof DomainError ? e.detail : e instanceof Error ? e.message : String(e));
  console.error(usage);
  process.exit(2);
}
