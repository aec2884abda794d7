// npm run openapi: writes docs/api/openapi.json from the API's own description (a test checks the
// committed file is up to date).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApiDocument } from '@tradie/api';

const out = join(import.meta.dirname, '../../../docs/api/openapi.json');
writeFileSync(out, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
console.log(`wrote ${out}`);
