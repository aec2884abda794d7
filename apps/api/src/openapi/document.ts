// The OpenAPI 3.1 document of /api/v1, built from the routes' own descriptions (describe.ts, read
// by operationsOf.ts) with the same zod schemas the API validates with. Served at
// GET /api/v1/openapi.json and written to docs/api/openapi.json (npm run openapi).
import { API_PREFIX } from '@tradie/contracts';
import { z } from 'zod';
import type { Operation } from './describe.ts';

const STATUS_TEXT: Record<number, string> = {
  400: 'Unreadable request (e.g. malformed JSON)',
  401: 'Not signed in, or the token expired or was refused',
  402: 'The free trial has ended: subscribe to create and send new work',
  403: 'The link is invalid or has expired',
  404: "Not found (also another account's id)",
  409: 'Conflicts with the current state (e.g. already sent, or changed by someone else — reload)',
  413: 'The request body is too large',
  415: 'The body must be JSON',
  422: 'The request is not valid; `detail` says why',
  429: 'Too many requests; see Retry-After',
  502: 'The payment provider refused the request',
  503: 'A service we depend on is unavailable; try again (see Retry-After)',
};

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const s = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  delete s.$schema;
  return s;
}

function queryParameters(schema: z.ZodType): Record<string, unknown>[] {
  const js = jsonSchema(schema, 'input');
  const props = (js.properties ?? {}) as Record<string, unknown>;
  const required = new Set((js.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, s]) => ({ name, in: 'query', required: required.has(name), schema: s }));
}

function operationObject(op: Operation): Record<string, unknown> {
  const params: Record<string, unknown>[] = [...op.path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
  if (op.query) params.push(...queryParameters(op.query));
  if (op.idempotent) params.push({ name: 'Idempotency-Key', in: 'header', required: false, description: 'A retry with the same key replays the first answer and changes nothing', schema: { type: 'string', maxLength: 200 } });
  const o: Record<string, unknown> = { tags: [op.tag], summary: op.summary, operationId: `${op.method}${op.path.replace(/[{}]/g, '').replace(/[^a-zA-Z0-9]+(\w)/g, (_, ch: string) => ch.toUpperCase())}` };
  if (params.length) o.parameters = params;
  if (op.body) o.requestBody = { required: false, content: { 'application/json': { schema: jsonSchema(op.body, 'input') } } };
  else if (op.bodyNote) o.requestBody = { description: op.bodyNote, content: { [op.bodyNote.startsWith('multipart') ? 'multipart/form-data' : 'application/json']: {} } };
  const responses: Record<string, unknown> = {};
  const r = op.response;
  responses[String(r.status)] = r.schema
    ? { description: 'OK', content: { 'application/json': { schema: jsonSchema(r.schema, 'output') } } }
    : { description: r.description ?? 'OK', ...(r.contentType ? { content: { [r.contentType]: {} } } : {}) };
  const errors = new Set([...(op.errors ?? []), 400, 422, ...(op.auth === false ? [] : [401])]);
  if (op.body) errors.add(415).add(413);
  for (const status of [...errors].sort()) responses[String(status)] = { $ref: `#/components/responses/E${status}` };
  o.responses = responses;
  if (op.auth === false) o.security = [];
  return o;
}

export function openApiDocument(operations: readonly Operation[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) (paths[op.path] ??= {})[op.method] = operationObject(op);
  const errorSchema = { type: 'object', required: ['detail'], properties: { detail: { type: 'string', description: 'What went wrong, in words the screens show' } } };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Tradie Quotes API',
      version: '1',
      description: 'Quotes, invoices, clients, GST reports and integrations for New Zealand tradespeople. Every error answers `{"detail": "..."}`. Money is NZD; amounts are numbers rounded to cents.',
    },
    servers: [{ url: API_PREFIX }],
    security: [{ bearer: [] }],
    tags: [...new Set(operations.map((o) => o.tag))].map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      schemas: { Error: errorSchema },
      responses: Object.fromEntries(
        Object.entries(STATUS_TEXT).map(([status, description]) => [`E${status}`, { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } }]),
      ),
    },
  };
}
