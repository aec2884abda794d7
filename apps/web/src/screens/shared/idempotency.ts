import { useCallback, useRef } from 'react';
import { newIdempotencyKey } from './documents.ts';

/**
 * The same Idempotency-Key for the same request body in a scope: a double tap, or a retry after a
 * lost answer, creates one client, one document, one payment or one email; a changed body gets a
 * new key (so the server never sees one key with two bodies). `forget` after a success.
 */
export function useIdempotencyKeys() {
  const keys = useRef(new Map<string, { body: string; key: string }>());
  const keyFor = useCallback((scope: string, body: unknown): string => {
    const text = JSON.stringify(body ?? null);
    const known = keys.current.get(scope);
    if (known?.body === text) return known.key;
    const key = newIdempotencyKey();
    keys.current.set(scope, { body: text, key });
    return key;
  }, []);
  const forget = useCallback((scope: string) => {
    keys.current.delete(scope);
  }, []);
  return { keyFor, forget };
}
