// The calls the documents-list tests (GET /invoices, its filters and counts) make again and again,
// through the HTTP app.
import type { signUp, TestApp } from '../support/testApp.ts';
import { line } from './support.ts';

export type User = Awaited<ReturnType<typeof signUp>>;

/**
 * `make`: POST /invoices — an invoice with one $100 line unless `body` says otherwise — which must
 * answer 201, and the new document's id and reference.
 */
export function listCalls(t: TestApp) {
  return {
    make: async (u: User, body: Record<string, unknown> = {}): Promise<{ id: string; reference: string }> => {
      const r = await t.post('/invoices', { type: 'invoice', line_items: [line('Work', 1, 100)], ...body }, u.token);
      if (r.status !== 201) throw new Error(`create failed: ${r.status} ${r.text}`);
      return r.json;
    },
  };
}

/** Waits for a call that must answer `status` (200 unless told). */
export async function ok(p: Promise<{ status: number; text: string }>, status = 200): Promise<void> {
  const r = await p;
  if (r.status !== status) throw new Error(`expected ${status}, got ${r.status} ${r.text}`);
}
