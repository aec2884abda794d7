// The PGlite adapter talks to PGlite below its query() API (docs/decisions/0009). This fails on any
// PGlite upgrade until someone has checked the pieces the adapter relies on: bump the pin in
// packages/store/package.json, run this and pglite.spec.ts, then update CHECKED_VERSION.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PGlite, TransactionAbortedError, messages, protocol } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';

const CHECKED_VERSION = '0.5.16';

const storePackage = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };

function installedVersion(): string {
  const require = createRequire(import.meta.url);
  // The package's main entry sits under dist/; its package.json is at the package root.
  let dir = dirname(require.resolve('@electric-sql/pglite'));
  for (let i = 0; i < 4; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === '@electric-sql/pglite' && pkg.version) return pkg.version;
    } catch {
      // not here: one level up
    }
    dir = dirname(dir);
  }
  throw new Error('Could not find the installed @electric-sql/pglite package.json');
}

describe('PGlite: the version and internals the protocol path relies on', () => {
  it('is pinned exactly, and the installed version is the one that was checked', () => {
    expect(storePackage.dependencies['@electric-sql/pglite']).toBe(CHECKED_VERSION);
    expect(installedVersion()).toBe(CHECKED_VERSION);
  });

  it('still has every piece the adapter calls, with the shape it calls', async () => {
    for (const name of ['parse', 'describe', 'execute', 'sync', 'close', 'query'] as const) {
      expect(typeof protocol.serialize[name], `protocol.serialize.${name}`).toBe('function');
    }
    expect(typeof messages.DatabaseError).toBe('function');
    expect(typeof TransactionAbortedError).toBe('function');
    const pg = await PGlite.create();
    try {
      expect(typeof pg.execProtocolRawStream).toBe('function');
      // text (25), int4 (23), jsonb (3802), timestamptz (1184): the type handlers by OID.
      for (const oid of [25, 23, 3802, 1184]) {
        expect(typeof pg.parsers[oid], `parser ${oid}`).toBe('function');
        expect(typeof pg.serializers[oid], `serializer ${oid}`).toBe('function');
      }
      // One raw round trip, as the adapter makes it: a simple query's bytes come back through onRawData.
      const chunks: Uint8Array[] = [];
      await pg.execProtocolRawStream(protocol.serialize.query('SELECT 1 AS one'), { syncToFs: false, onRawData: (bytes: Uint8Array) => chunks.push(Uint8Array.from(bytes)) });
      const reply = Buffer.concat(chunks);
      // RowDescription ('T'), DataRow ('D'), CommandComplete ('C'), ReadyForQuery ('Z').
      expect(reply[0]).toBe(0x54);
      expect(reply.includes(Buffer.from('SELECT 1\0'))).toBe(true);
      // ReadyForQuery is the last message: 'Z', length 5, status 'I' (idle).
      expect([...reply.subarray(-6)]).toEqual([0x5a, 0, 0, 0, 5, 0x49]);
    } finally {
      await pg.close();
    }
  });
});
