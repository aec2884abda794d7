// Hostile input, every /api/v1 route: a fast-check fuzz driven by the operations list
// (each route's own description), so a route added to the app is fuzzed without touching this file.
//
// Signed in as a fresh account with one resource of every kind, each route gets bodies, queries
// and path ids that are wrong in every way a phone, a script or an attacker can make them: wrong
// types, missing and extra fields, 100k-character strings, 10k-item arrays, NaN/Infinity/1e309/-0,
// negative money, fractions of a cent, impossible dates, emoji, RTL marks, NUL, lone surrogates,
// malformed JSON, the wrong content type, bodies over 1 MB, ids like ../ and %00 and another
// account's ids. The property: the answer is never a 5xx; a 4xx is JSON with a `detail`; and a
// refused request writes nothing: the account's event count, and the row count and newest row
// version (xmin) of every ordinary table, are what they were before it.
//
// Deterministic: a fixed seed (FUZZ_SEED to change it) and a fixed number of runs per route
// (FUZZ_RUNS scales them). A failure prints the request and the command that runs that route
// again with the same seed.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_BODY } from '../../src/app.ts';
import type { Operation } from '../../src/openapi/describe.ts';
import {
  changedTables, connectXero, eventCount, fillPath, fingerprint, idsOf, makeFixtures, nextXid, operations, opKey, paramKind, pathParams, startReliabilityApp, validBody, validLine, validQuery,
  type Fixtures, type ReliabilityApp,
} from './support.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20260504);
const SCALE = Number(process.env.FUZZ_RUNS ?? 1);
/** Runs per route; routes that render a PDF or call a provider cost more per request. */
const runsFor = (op: Operation): number => Math.max(1, Math.round(SCALE * (/pdf|send|convert|xero|billing\/create|logo/.test(op.path) ? 20 : 50)));

// ---- hostile values ------------------------------------------------------------------------

/** JSON text inserted as is: numbers JSON.stringify cannot write (1e309, -0), and non-JSON tokens. */
class Raw {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}
const raw = (text: string): Raw => new Raw(text);

function toJsonText(v: unknown): string {
  if (v instanceof Raw) return v.text;
  // Index by index: a generated array may carry its own 'constructor', which breaks Array#map.
  if (Array.isArray(v)) return `[${Array.from({ length: v.length }, (_, i) => toJsonText(v[i])).join(',')}]`;
  if (v !== null && typeof v === 'object') return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${toJsonText(x)}`).join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

/** Long values are shown by their length, so a failure's report stays readable. */
function brief(v: unknown): string {
  const s = typeof v === 'string' ? v : v instanceof Raw ? v.text : toJsonText(v);
  return s.length > 1000 ? `${JSON.stringify(s.slice(0, 600))}… (${s.length} chars)` : JSON.stringify(s);
}

const HUGE = 'x'.repeat(100_000);
const HUGE_EMOJI = '🦺'.repeat(50_000);
const NASTY_STRINGS = [
  '', ' ', '\t\n', HUGE, HUGE_EMOJI, '🧰🔧 Sparky Ltd 🇳🇿', 'مرحبا بالعالم', '\u202eDIOV\u202c', 'a\u0000b', '\u0000', '\ud800', '\udfff tail', 'x\ud83d',
  'e\u0301\u0301\u0301', '\u200b\u200d\ufeff', "' OR 1=1 --", 'Robert"); DROP TABLE events;--', '<script>alert(1)</script>', '=HYPERLINK("http://x","y")',
  '../../../etc/passwd', '%00', '%zz', '${7*7}{{7*7}}', 'null', 'undefined', 'true', '[]', '{}', 'NaN', 'Infinity', '-Infinity', '1e309', '-0',
  '-1', '-0.01', '0.001', '10.005', '0.1e1', '1,000.00', '$5', '0x10', ' 12 ', '99999999999999999999999.99', '2026-02-30', '2026-13-01',
  '2026-02-29', '2028-02-29', '0000-00-00', '9999-12-31', '2026-1-1', '2026-05-05T00:00:00Z', 'yesterday', 'today', 'quote', 'invoice', 'paid',
  'cash', 'bank_transfer', 'total', 'line', 'NZD', 'AUD', 'a@example.nz', 'not-an-email', 'a@b', `${'a'.repeat(250)}@example.nz`,
];
const NASTY_NUMBERS: unknown[] = [
  raw('NaN'), raw('Infinity'), raw('-Infinity'), raw('1e309'), raw('-1e309'), raw('-0'), raw('9007199254740993'), raw('1e-400'), raw('0.1e1'),
  0, 1, -1, -0.01, 0.001, 0.005, 10.005, 1e-7, 0.1 + 0.2, 1e21, 1e300, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 31, 100_000_001, 1_000_001, 0.15, 1.5, 2,
];
const TEN_THOUSAND_ZEROS = Array.from({ length: 10_000 }, () => 0);
const TEN_THOUSAND_LINES = Array.from({ length: 10_000 }, () => ({ ...validLine, unit_price: 1 }));
const DEEP_ARRAY = raw(`${'['.repeat(5_000)}${']'.repeat(5_000)}`);
const DEEP_OBJECT = raw(`${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`);
const PROTO = raw('{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"polluted":1}}}');

/** Text no database column takes, however valid the JSON: NUL and halves of surrogate pairs. */
const UNSTORABLE = ['a\u0000b', '\u0000', 'Kōwhai\u0000', '\ud800', '\udfff tail', 'x\ud83d', '\ud83d\ud83d'];
const nastyString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...UNSTORABLE) },
  { weight: 6, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
);
const BAD_DATES = ['2026-02-30', '2026-13-01', '2026-00-10', '2026-02-29', '0000-00-00', '1899-12-31', '9999-12-31', '', 'yesterday', '2026-1-1', '2026-05-05T00:00:00Z', '20260505'];
const badDate = fc.constantFrom(...BAD_DATES);
const DATE_LIKE = /^\d{4}-\d{2}-\d{2}$/;
const nastyNumber: fc.Arbitrary<unknown> = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...NASTY_NUMBERS) }, { weight: 1, arbitrary: fc.double() }, { weight: 1, arbitrary: fc.integer() });

const scalar: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: nastyString },
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_NUMBERS) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: fc.constantFrom('\ud800', '\udc00', '\u0000', 'a', '😀', '\u202e'), maxLength: 8 }) },
  { weight: 2, arbitrary: fc.double() },
  { weight: 2, arbitrary: fc.constantFrom(true, false, null) },
  { weight: 1, arbitrary: fc.integer() },
);

/** Any JSON-ish value, nasty leaves, a few levels deep, now and then something enormous. */
const hostile: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 8, arbitrary: scalar },
    { weight: 2, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    { weight: 2, arbitrary: fc.dictionary(fc.constantFrom('a', 'id', 'account_id', 'amount', 'name', 'version', 'type', 'line_items', '', ' '), tie('value'), { maxKeys: 3 }) },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(TEN_THOUSAND_ZEROS, TEN_THOUSAND_LINES, DEEP_ARRAY, DEEP_OBJECT, PROTO, [], {}) },
  ),
})).value;

// ---- valid examples, to mutate from ------------------------------------------------------------

type Ctx = { f: Fixtures; other: Fixtures; n: number };

/** Field names from a zod schema (its JSON Schema's properties), for routes with no example. */
function fieldNames(schema: unknown): string[] {
  try {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const js = (schema as any)?.toJSONSchema?.({ io: 'input', unrepresentable: 'any' }) ?? {};
    return Object.keys(js.properties ?? {});
  } catch {
    return [];
  }
}

const exampleBody = (op: Operation, c: Ctx): Record<string, unknown> => validBody(op, c.f, c.n) ?? Object.fromEntries(fieldNames(op.body).map((k) => [k, 'x']));
const exampleQuery = (op: Operation, c: Ctx): Record<string, string> => validQuery(op, c.f) ?? Object.fromEntries(fieldNames(op.query).map((k) => [k, 'x']));

// ---- mutations -------------------------------------------------------------------------------

type Mutation = { kind: 'set' | 'delete' | 'extra'; at: number; key: string; value: unknown };
const mutation: fc.Arbitrary<Mutation> = fc.record({
  kind: fc.constantFrom('set', 'set', 'set', 'delete', 'extra'),
  at: fc.nat(),
  key: fc.constantFrom('extra', 'id', 'account_id', 'accountId', 'meta', '__proto__', 'constructor', 'status', 'paid', 'total', 'version'),
  value: hostile,
});

/** Every path to a value in a JSON tree (objects and arrays), the root included. */
function pathsOf(v: unknown, prefix: (string | number)[] = []): (string | number)[][] {
  const out: (string | number)[][] = [prefix];
  if (Array.isArray(v)) v.forEach((x, i) => out.push(...pathsOf(x, [...prefix, i])));
  else if (v !== null && typeof v === 'object' && !(v instanceof Raw)) for (const [k, x] of Object.entries(v)) out.push(...pathsOf(x, [...prefix, k]));
  return out;
}

/** A deep copy that keeps Raw tokens: later mutations must never edit the shared constants. */
const copy = (v: unknown): unknown =>
  v instanceof Raw ? v : Array.isArray(v) ? v.map(copy) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, copy(x)])) : v;

function applyMutations(example: Record<string, unknown>, mutations: Mutation[]): unknown {
  let root: unknown = JSON.parse(JSON.stringify(example));
  for (const original of mutations) {
    const m = { ...original, value: copy(original.value) };
    const paths = pathsOf(root);
    const path = paths[m.at % paths.length]!;
    if (path.length === 0) {
      if (m.kind === 'set') root = m.value;
      else if (m.kind === 'extra' && root !== null && typeof root === 'object' && !(root instanceof Raw)) Object.defineProperty(root, m.key, { value: m.value, enumerable: true, configurable: true, writable: true });
      continue;
    }
    let parent: unknown = root;
    for (const p of path.slice(0, -1)) parent = (parent as Record<string | number, unknown>)[p];
    if (parent === null || typeof parent !== 'object' || parent instanceof Raw) continue;
    const last = path.at(-1)!;
    const target = parent as Record<string | number, unknown>;
    if (m.kind === 'set') target[last] = m.value;
    else if (m.kind === 'delete') {
      if (Array.isArray(target)) target.splice(Number(last), 1);
      else delete target[last];
    } else {
      const child = target[last];
      if (child !== null && typeof child === 'object' && !Array.isArray(child) && !(child instanceof Raw)) Object.defineProperty(child, m.key, { value: m.value, enumerable: true, configurable: true, writable: true });
      else target[last] = { [m.key]: m.value };
    }
  }
  return root;
}

/**
 * The example with the leaves `pick` chooses replaced by `value` (or by `value(leaf)` when it is a
 * function): all of them, or only the `only`-th (modulo their number).
 */
function replaceLeaves(example: unknown, pick: (leaf: unknown) => boolean, value: unknown, only?: number): unknown {
  const valueFor = (leaf: unknown): unknown => (typeof value === 'function' ? (value as (leaf: unknown) => unknown)(leaf) : value);
  let count = 0;
  const countLeaves = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(countLeaves);
    else if (v !== null && typeof v === 'object') Object.values(v).forEach(countLeaves);
    else if (pick(v)) count += 1;
  };
  countLeaves(example);
  const target = only === undefined || count === 0 ? -1 : only % count;
  let seen = 0;
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    if (!pick(v)) return v;
    const hit = target === -1 || seen === target;
    seen += 1;
    return hit ? valueFor(v) : v;
  };
  return walk(example);
}

// ---- the request -----------------------------------------------------------------------------

/** How the body travels: its bytes and headers. */
type Encoding = 'json' | 'json-charset' | 'vnd-json' | 'text-plain' | 'no-type' | 'form' | 'multipart' | 'malformed' | 'bad-utf8' | 'oversized' | 'none';

const MALFORMED = [
  '{', '}', '{"a":}', "{'name':'x'}", '{"name":"x",}', '[1,2', 'NaN', '{"amount":NaN}', '{"amount":Infinity}', '\ufeff{}', '{"a":1}{"b":2}', '\u0000',
  '   ', 'undefined', '{"name":"\\ud800"}', '{"name":"a\\u0000b"}', '"just a string"', '42', 'null', 'true', '[]', '{"line_items":[{"qty":1e309}]}',
];

/** A path id: one of the account's own (the usual case), another account's, or something odd. */
function idArb(kind: ReturnType<typeof paramKind>, c: () => Ctx): fc.Arbitrary<{ text: string; mine: boolean; theirs: boolean }> {
  const own = fc.nat().map((i) => {
    const ids = idsOf(c().f, kind);
    return { text: ids[i % ids.length]!, mine: true, theirs: false };
  });
  const theirs = fc.nat().map((i) => {
    const o = c().other;
    const ids = [...idsOf(o, kind), o.clientId, o.paymentId, o.user.userId];
    return { text: ids[i % ids.length]!, mine: false, theirs: true };
  });
  const odd = fc
    .oneof(
      fc.constantFrom('..', '../..', '..%2F..%2Fclients', '%2e%2e', '%00', '%2500', '%', '%zz', '%E0%A4%A', '%F0%9F%A6%BA', '%20', '.', '~', 'null', 'undefined', '0', '-1', '1e309'),
      fc.constantFrom('a'.repeat(101), 'a'.repeat(10_000), encodeURIComponent('\u0000'), encodeURIComponent('é'), '%ED%A0%80', encodeURIComponent("' OR 1=1 --"), '01a20000-0000-7000-8000-000000000000'),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }).map(encodeURIComponent),
      fc.uuid(),
    )
    .map((text) => ({ text, mine: false, theirs: false }));
  return fc.oneof({ weight: 5, arbitrary: own }, { weight: 2, arbitrary: theirs }, { weight: 3, arbitrary: odd });
}

interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | Uint8Array | FormData | undefined;
  /** The path names another account's resource. */
  theirs: boolean;
  describe: string;
}

function encodeBody(value: unknown, encoding: Encoding, malformed: string): { body: FuzzRequest['body']; headers: Record<string, string> } {
  const text = toJsonText(value);
  const flat = value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof Raw) ? Object.entries(value) : [['value', value] as [string, unknown]];
  const asText = (v: unknown): string => (typeof v === 'string' ? v : toJsonText(v));
  switch (encoding) {
    case 'none':
      return { body: undefined, headers: {} };
    case 'json':
      return { body: text, headers: { 'Content-Type': 'application/json' } };
    case 'json-charset':
      return { body: text, headers: { 'Content-Type': 'application/json; charset=utf-8' } };
    case 'vnd-json':
      return { body: text, headers: { 'Content-Type': 'application/vnd.api+json' } };
    case 'text-plain':
      return { body: text, headers: { 'Content-Type': 'text/plain' } };
    case 'no-type':
      return { body: new TextEncoder().encode(text), headers: {} };
    case 'form':
      return { body: new URLSearchParams(flat.map(([k, v]) => [k, asText(v)])).toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } };
    case 'multipart': {
      const fd = new FormData();
      for (const [k, v] of flat) fd.append(k, asText(v));
      fd.append('file', new File([text], 'body.json', { type: 'application/json' }));
      return { body: fd, headers: {} };
    }
    case 'malformed':
      return { body: malformed, headers: { 'Content-Type': 'application/json' } };
    case 'bad-utf8':
      return { body: new Uint8Array([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc0, 0xaf, 0x22, 0x7d]), headers: { 'Content-Type': 'application/json' } };
    case 'oversized':
      return { body: `{"name":"${'x'.repeat(MAX_JSON_BODY + 16)}"}`, headers: { 'Content-Type': 'application/json' } };
  }
}

/** PNG, an SVG with a script, junk and empties: the logo route's own multipart variants. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const logoPart = fc.record({
  field: fc.constantFrom('file', 'file', 'logo', 'file[]', ''),
  content: fc.constantFrom<string | Uint8Array>(
    PNG, new Uint8Array(0), PNG.subarray(0, 12), '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>', '<svg>', '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg"><text>&b;</text></svg>',
    'GIF89a', HUGE, `<svg xmlns="http://www.w3.org/2000/svg"><text>${'\u0000\ud800'}</text></svg>`,
  ),
  name: fc.constantFrom('logo.png', '../../etc/passwd', '', 'a\u0000.svg', '🦺.svg', 'x'.repeat(1000)),
  type: fc.constantFrom('image/png', 'image/svg+xml', 'text/html', '', 'application/octet-stream'),
  asString: fc.boolean(),
});

/** A value one time in `every`, otherwise undefined (fc.option's freq counts the other way). */
const sometimes = <T>(arb: fc.Arbitrary<T>, every = 4): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: every - 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });

function requestArb(op: Operation, c: () => Ctx): fc.Arbitrary<FuzzRequest> {
  const params = pathParams(op);
  const ids = fc.tuple(...params.map((p) => idArb(paramKind(op, p), c)));
  const hasBody = op.method === 'post' || op.method === 'put' || op.method === 'delete';
  const bodyValue = fc.oneof(
    { weight: 4, arbitrary: fc.array(mutation, { minLength: 0, maxLength: 3 }).map((ms) => ({ kind: 'example' as const, ms })) },
    // A valid body but for one text field, or one number (so the request gets as far as storing it)...
    { weight: 4, arbitrary: fc.tuple(fc.nat(), nastyString, badDate).map(([at, v, date]) => ({ kind: 'one-string' as const, at, v, date })) },
    { weight: 2, arbitrary: fc.tuple(fc.nat(), nastyNumber).map(([at, v]) => ({ kind: 'one-number' as const, at, v })) },
    // ...one nasty value in every text field, or every number field, at once...
    { weight: 1, arbitrary: nastyString.map((v) => ({ kind: 'strings' as const, v })) },
    { weight: 1, arbitrary: nastyNumber.map((v) => ({ kind: 'numbers' as const, v })) },
    // ...or anything at all.
    { weight: 2, arbitrary: hostile.map((v) => ({ kind: 'value' as const, v })) },
  );
  const encoding = fc.oneof(
    { weight: 12, arbitrary: fc.constant<Encoding>('json') },
    { weight: 1, arbitrary: fc.constantFrom<Encoding>('json-charset', 'vnd-json', 'text-plain', 'no-type', 'form', 'multipart', 'bad-utf8', 'none') },
    { weight: 2, arbitrary: fc.constant<Encoding>('malformed') },
    { weight: 1, arbitrary: fc.constant<Encoding>('oversized') },
  );
  const queryValue = fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 3, arbitrary: nastyString.filter((s) => s.length < 1000) },
    { weight: 1, arbitrary: fc.constantFrom(HUGE, '%', '%zz', '%00', '\u0000', '\ud800') },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  );
  const query = fc.record({
    all: sometimes(fc.constantFrom(...NASTY_STRINGS.filter((s) => s.length < 1000), '%', '%00'), 6),
    values: fc.array(fc.tuple(fc.nat(), queryValue, badDate), { maxLength: 4 }),
    extra: sometimes(fc.tuple(fc.constantFrom('account_id', 'sig', 'a', '__proto__', 'limit', 'status'), queryValue.map((v) => v ?? ''))),
    rawTail: sometimes(fc.constantFrom('&%', '&a=%zz', '&%E0%A4%A=1', '&start_date=%00', '&=&==&', `&q=${'%FF'.repeat(10)}`), 6),
  });
  const idem = sometimes(fc.constantFrom('retry-1', 'retry-1', 'a'.repeat(201), 'kéy', ' ', 'k\ty', '%00'), 3);

  return fc
    .record({ ids, bodyValue, encoding, malformed: fc.constantFrom(...MALFORMED), query, idem, logo: logoPart, logoMode: fc.constantFrom('part', 'part', 'json') })
    .map((g): FuzzRequest => {
      const ctx = c();
      const values = Object.fromEntries(params.map((p, i) => [p, g.ids[i]!.text]));
      const theirs = g.ids.some((x) => x.theirs);
      // Query: the example's keys, some replaced or removed, an extra key, a malformed tail.
      const q = new URLSearchParams(exampleQuery(op, ctx));
      const keys = [...q.keys()];
      if (g.query.all !== undefined) for (const k of keys) q.set(k, g.query.all);
      for (const [at, v, date] of g.query.values) {
        const k = keys.length > 0 ? keys[at % keys.length]! : 'q';
        if (v === undefined) q.delete(k);
        else q.set(k, DATE_LIKE.test(q.get(k) ?? '') ? date : v);
      }
      if (g.query.extra) q.append(g.query.extra[0], g.query.extra[1]);
      const qs = `${q.toString()}${g.query.rawTail ?? ''}`;
      const url = `/api/v1${fillPath(op, values)}${qs ? `?${qs}` : ''}`;
      const headers: Record<string, string> = { Authorization: `Bearer ${ctx.f.user.token}` };
      if (g.idem !== undefined) headers['Idempotency-Key'] = g.idem;
      let body: FuzzRequest['body'];
      let what = '';
      if (op.bodyNote?.startsWith('multipart') && g.logoMode === 'part' && g.encoding !== 'oversized') {
        const fd = new FormData();
        const l = g.logo;
        if (l.asString) fd.append(l.field, typeof l.content === 'string' ? l.content : Buffer.from(l.content).toString('latin1'));
        else fd.append(l.field, new File([typeof l.content === 'string' ? l.content : new Uint8Array(l.content)], l.name, { type: l.type }));
        body = fd;
        what = `multipart ${l.field}=${brief(typeof l.content === 'string' ? l.content : `<${l.content.length} bytes>`)} name=${brief(l.name)} type=${l.type}`;
      } else if (hasBody) {
        const b = g.bodyValue;
        const value =
          b.kind === 'example' ? applyMutations(exampleBody(op, ctx), b.ms)
          : b.kind === 'one-string' ? replaceLeaves(exampleBody(op, ctx), (x) => typeof x === 'string', (x: unknown) => (DATE_LIKE.test(String(x)) ? b.date : b.v), b.at)
          : b.kind === 'one-number' ? replaceLeaves(exampleBody(op, ctx), (x) => typeof x === 'number', b.v, b.at)
          : b.kind === 'strings' ? replaceLeaves(exampleBody(op, ctx), (x) => typeof x === 'string', b.v)
          : b.kind === 'numbers' ? replaceLeaves(exampleBody(op, ctx), (x) => typeof x === 'number', b.v)
          : b.v;
        const enc = encodeBody(value, g.encoding, g.malformed);
        body = enc.body;
        Object.assign(headers, enc.headers);
        what = `${g.encoding} ${g.encoding === 'malformed' ? brief(g.malformed) : g.encoding === 'oversized' ? '(over 1 MB)' : brief(value)}`;
      }
      const describe = `${op.method.toUpperCase()} ${brief(url)}${g.idem !== undefined ? ` Idempotency-Key=${brief(g.idem)}` : ''}${what ? ` body: ${what}` : ''}`;
      return { method: op.method.toUpperCase(), url, headers, body, theirs, describe };
    })
    .map((r) => Object.assign(r, { [fc.toStringMethod]: () => r.describe }));
}

// ---- the suite ---------------------------------------------------------------------------------

let rel: ReliabilityApp;
let other: Fixtures;
let accountSeq = 0;
const tally = { requests: 0, byStatus: new Map<number, number>(), started: 0, requestMs: 0, checkMs: 0, fixturesMs: 0 };

beforeAll(async () => {
  tally.started = performance.now();
  rel = await startReliabilityApp();
  other = await makeFixtures(rel.t, 'Other Account');
});
afterAll(async () => {
  const seconds = ((performance.now() - tally.started) / 1000).toFixed(1);
  const statuses = [...tally.byStatus.entries()].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ');
  console.log(`fuzz: ${tally.requests} requests over ${operations.length} operations in ${seconds} s (requests ${(tally.requestMs / 1000).toFixed(1)} s, state checks ${(tally.checkMs / 1000).toFixed(1)} s, accounts ${(tally.fixturesMs / 1000).toFixed(1)} s; seed ${SEED}); answers ${statuses}`);
  await rel?.close();
});

describe('hostile input on every /api/v1 operation', () => {
  operations.forEach((op, index) => {
    const runs = runsFor(op);
    it(`${opKey(op)}: ${runs} hostile requests, never a 5xx, 4xx with a detail, a refused one writes nothing`, async () => {
      const { t } = rel;
      const t0 = performance.now();
      const f = await makeFixtures(t, `Fuzz ${index}`);
      tally.fixturesMs += performance.now() - t0;
      if (op.path.startsWith('/integrations/xero')) await connectXero(t, f.user.token);
      const ctx: Ctx = { f, other, n: 0 };
      const c = (): Ctx => ctx;
      // The Xero callback is a page in the Connect window: its refusals are HTML that says what happened.
      const htmlPage = op.response.contentType === 'text/html';
      let known: { xid: string; rows: Record<string, string>; events: number } | undefined;
      const reproduce = `Reproduce: FUZZ_SEED=${SEED}${SCALE !== 1 ? ` FUZZ_RUNS=${SCALE}` : ''} npx vitest run apps/api/test/reliability/fuzz.int.spec.ts -t '${opKey(op)}:'`;
      await fc.assert(
        fc.asyncProperty(requestArb(op, c), async (req) => {
          ctx.n = ++accountSeq;
          // The state after the previous request, when it was refused (and so checked unchanged), is the state now.
          let t0 = performance.now();
          const before = known ?? { xid: await nextXid(t), rows: await fingerprint(t), events: await eventCount(t, f.user.userId) };
          known = undefined;
          tally.checkMs += performance.now() - t0;
          t0 = performance.now();
          const res = await t.app.request(req.url, { method: req.method, headers: req.headers, body: req.body as RequestInit['body'] }, {});
          const text = await res.text();
          tally.requestMs += performance.now() - t0;
          tally.requests += 1;
          tally.byStatus.set(res.status, (tally.byStatus.get(res.status) ?? 0) + 1);
          const answer = `${req.describe} → ${res.status} ${text.slice(0, 300)}`;
          expect(res.status, answer).toBeLessThan(500);
          expect(res.status, answer).toBeGreaterThanOrEqual(200);
          if (res.status >= 400) {
            // A path like /api/v1/invoices/../../x leaves the API once normalised: the web app's pages answer it.
            const inApi = new URL(req.url, 'http://app.test').pathname.startsWith('/api/v1/');
            // A route that also takes its own page's form (bodyNote) answers that form with a page.
            const formPage = (op.bodyNote ?? '').includes('application/x-www-form-urlencoded') && (req.headers['Content-Type'] ?? '').startsWith('application/x-www-form-urlencoded');
            // Xero's webhook contract: a delivery whose signature does not match is answered 401 with an empty body.
            const xeroRefusal = opKey(op) === 'POST /integrations/xero/webhook' && res.status === 401 && text === '';
            if (inApi && !htmlPage && !formPage && !xeroRefusal) {
              expect(res.headers.get('content-type'), answer).toMatch(/^application\/json/);
              const detail = (JSON.parse(text) as { detail?: unknown }).detail;
              expect(typeof detail === 'string' && detail.trim() !== '', `${answer}: no detail`).toBe(true);
            }
            t0 = performance.now();
            const xid = await nextXid(t);
            // No transaction id handed out: nothing was written. Otherwise compare every table.
            const after = xid === before.xid ? before : { xid, rows: await fingerprint(t), events: await eventCount(t, f.user.userId) };
            tally.checkMs += performance.now() - t0;
            expect(after.events, `${answer}: appended events`).toBe(before.events);
            expect(changedTables(before.rows, after.rows), `${answer}: wrote to these tables`).toEqual([]);
            known = after;
          }
          if (req.theirs) expect(res.status, `${req.describe}: another account's id answered ${res.status}`).toBeGreaterThanOrEqual(400);
        }),
        { seed: SEED + index, numRuns: runs, endOnFailure: true },
      ).catch((e: unknown) => {
        throw new Error(`${reproduce}\n${e instanceof Error ? e.message : String(e)}`, { cause: e });
      });
    }, 120_000);
  });
});

// ---- request size --------------------------------------------------------------------------

describe('request bodies are size-limited', () => {
  /** A JSON object of exactly `bytes` bytes. */
  const jsonOf = (bytes: number): string => {
    const head = '{"name":"';
    return `${head}${'x'.repeat(bytes - head.length - 2)}"}`;
  };
  /** The same bytes as a stream: no Content-Length, so only counting the bytes can stop it. */
  const streamOf = (text: string): ReadableStream<Uint8Array> => {
    const bytes = new TextEncoder().encode(text);
    let at = 0;
    return new ReadableStream({
      pull(controller) {
        if (at >= bytes.length) return controller.close();
        controller.enqueue(bytes.subarray(at, at + 64 * 1024));
        at += 64 * 1024;
      },
    });
  };

  it('a JSON body just over 1 MB is 413 with a detail on every JSON route, with or without a Content-Length, and writes nothing', async () => {
    const { t } = rel;
    const f = await makeFixtures(t, 'Big Bodies');
    const before = await fingerprint(t);
    // A supplier's price list is a bigger body by design, bounded by its own limit (priceBook tests).
    const jsonRoutes = operations.filter((op) => op.body && !op.path.startsWith('/price-book/imports'));
    expect(jsonRoutes.length).toBeGreaterThan(10);
    for (const op of jsonRoutes) {
      const url = `/api/v1${fillPath(op, { id: f.draftId, paymentId: f.paymentId })}`;
      for (const body of [jsonOf(MAX_JSON_BODY + 1), streamOf(jsonOf(MAX_JSON_BODY + 1))]) {
        const res = await t.app.request(url, { method: op.method.toUpperCase(), headers: { Authorization: `Bearer ${f.user.token}`, 'Content-Type': 'application/json' }, body, duplex: 'half' } as RequestInit);
        expect(res.status, `${opKey(op)} ${typeof body === 'string' ? 'with' : 'without'} Content-Length`).toBe(413);
        expect((await res.json()).detail).toBe('The request is too large.');
      }
    }
    expect(changedTables(before, await fingerprint(t))).toEqual([]);
    // At the limit it is read (and refused for what it says, not for its size).
    const atLimit = await t.app.request('/api/v1/clients', { method: 'POST', headers: { Authorization: `Bearer ${f.user.token}`, 'Content-Type': 'application/json' }, body: jsonOf(MAX_JSON_BODY) });
    expect(atLimit.status).toBe(422);
    expect((await atLimit.json()).detail).toMatch(/Name must be at most/);
  });

  it("a logo over 2 MB is 413 'Logo must be less than 2MB' (finer cases: settings/logo.int.spec.ts)", async () => {
    const { t } = rel;
    const f = await makeFixtures(t, 'Big Logo');
    const before = await fingerprint(t);
    for (const size of [2 * 1024 * 1024 + 1, 5 * 1024 * 1024]) {
      const fd = new FormData();
      fd.append('file', new File([new Uint8Array(Buffer.concat([PNG, Buffer.alloc(size - PNG.length)]))], 'logo.png', { type: 'image/png' }));
      const r = await t.call('POST', '/business-settings/logo', { token: f.user.token, body: fd });
      expect(r.status, `${size} bytes`).toBe(413);
      expect(r.json.detail).toBe('Logo must be less than 2MB');
    }
    expect(changedTables(before, await fingerprint(t))).toEqual([]);
  });
});
