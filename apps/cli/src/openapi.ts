// npm run openapi: writes docs/api/openapi.json from the API's own description — the routes'
// describe() entries, read from the routes built without a database (apiOperations) — and a test
// checks the committed file is up to date.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { apiOperations, openApiDocument } from '@tradie/api';

const out = join(import.meta.dirname, '../../../docs/api/openapi.json');
writeFileSync(out, `${JSON.stringify(openApiDocument(apiOperations()), null, 2)}\n`);
console.log(`wrote ${out}`);
