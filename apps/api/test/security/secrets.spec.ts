import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { randomSecret, sameDigest, secretDigest } from '../../src/security/secrets.ts';

describe('handed-out secrets', () => {
  it('a secret is its bytes as base64url: 24 bytes are 32 characters, 32 are 43, and no two alike', () => {
    const made = Array.from({ length: 200 }, () => randomSecret(24));
    for (const s of made) expect(s).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(new Set(made).size).toBe(200);
    expect(randomSecret(32)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('is kept as the SHA-256 of its UTF-8 bytes, in hex (FIPS 180-2 vector; a non-ASCII secret hashed as UTF-8)', () => {
    expect(secretDigest('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    // 'ā' is C4 81 in UTF-8 (not the one byte E1 of Latin-1).
    expect(secretDigest('ā')).toBe(createHash('sha256').update(Buffer.from([0xc4, 0x81])).digest('hex'));
  });

  it('digests compare equal only when they are the same, whatever their lengths', () => {
    const d = secretDigest('token');
    expect(sameDigest(d, secretDigest('token'))).toBe(true);
    expect(sameDigest(d, secretDigest('token2'))).toBe(false);
    expect(sameDigest(d, d.slice(0, -1))).toBe(false);
    expect(sameDigest('', '')).toBe(true);
  });
});
