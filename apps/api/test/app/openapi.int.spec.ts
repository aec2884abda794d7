// The API reference cannot drift: every registered route is described (each route carries its
// description, so every description is a registered route), and docs/api/openapi.json is the
// generated document.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiOperations } from '../../src/openapi/apiOperations.ts';
import { openApiDocument } from '../../src/openapi/document.ts';
import { operationsOf } from '../../src/openapi/operationsOf.ts';
import { useTestApp } from '../support/testApp.ts';

describe('the OpenAPI document', () => {
  const t = useTestApp();

  it('describes exactly the routes the app registers', () => {
    // Method-specific routes only: the catch-all 404 and the middleware are registered for ALL.
    const registered = new Set(
      t.app.routes
        .filter((r) => r.method !== 'ALL' && r.path.startsWith('/api/v1/'))
        .map((r) => `${r.method} ${r.path.slice('/api/v1'.length).replace(/:(\w+)/g, '{$1}')}`),
    );
    const described = new Set(operationsOf(t.app, '/api/v1').map((o) => `${o.method.toUpperCase()} ${o.path}`));
    expect([...registered].filter((r) => !described.has(r))).toEqual([]);
    expect([...described].filter((d) => !registered.has(d))).toEqual([]);
  });

  it('lists the same operations without a database (npm run openapi) as the running app serves', () => {
    const key = (o: { method: string; path: string }) => `${o.method} ${o.path}`;
    expect(apiOperations().map(key)).toEqual(operationsOf(t.app, '/api/v1').map(key));
  });

  it('is served at /api/v1/openapi.json and is valid enough to read', async () => {
    const r = await t.get('/openapi.json');
    expect(r.status).toBe(200);
    expect(r.json.openapi).toBe('3.1.0');
    expect(r.json.paths['/invoices'].post.requestBody.content['application/json'].schema.properties).toHaveProperty('line_items');
    expect(r.json.paths['/invoices'].post.parameters.map((p: { name: string }) => p.name)).toContain('Idempotency-Key');
  });

  it('docs/api/openapi.json is up to date (npm run openapi) and is what the app serves', async () => {
    const committed = JSON.parse(readFileSync(join(import.meta.dirname, '../../../../docs/api/openapi.json'), 'utf8'));
    expect(committed).toEqual(openApiDocument(apiOperations()));
    expect((await t.get('/openapi.json')).json).toEqual(committed);
  });
});
