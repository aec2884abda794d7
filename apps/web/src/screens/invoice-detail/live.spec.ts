import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { awaitsClient, LIVE_REFRESH_MS, liveDocumentDetailQuery } from './queries.ts';

const doc = (type: 'quote' | 'invoice', status: string, payment_status = 'unpaid', attempts = 0) =>
  ({ type, status, payment_status, send_attempts: Array.from({ length: attempts }, () => ({})) }) as Parameters<typeof awaitsClient>[0];

describe('the detail screen asks for the document again while the client may act on it', () => {
  it('a sent quote (waiting for an answer) and an issued invoice not yet paid; nothing else', () => {
    expect(awaitsClient(doc('quote', 'sent'))).toBe(true);
    // A draft whose email is waiting in the outbox: its link is out all the same.
    expect(awaitsClient(doc('quote', 'draft', 'unpaid', 1))).toBe(true);
    expect(awaitsClient(doc('invoice', 'draft', 'unpaid', 1))).toBe(true);
    for (const status of ['draft', 'accepted', 'declined', 'converted', 'expired', 'void']) expect(awaitsClient(doc('quote', status)), status).toBe(false);
    for (const status of ['accepted', 'declined', 'converted', 'expired', 'void']) expect(awaitsClient(doc('quote', status, 'unpaid', 1)), status).toBe(false);
    for (const status of ['issued', 'sent', 'partial', 'overdue']) expect(awaitsClient(doc('invoice', status, status === 'partial' ? 'partial' : 'unpaid')), status).toBe(true);
    expect(awaitsClient(doc('invoice', 'paid', 'paid'))).toBe(false);
    expect(awaitsClient(doc('invoice', 'draft'))).toBe(false);
    expect(awaitsClient(doc('invoice', 'void'))).toBe(false);
    expect(awaitsClient(undefined)).toBe(false);
    // An accepted quote with a variation sent to the client and not answered yet: they may approve it now.
    const variation = (status: string, attempts: number) => ({ status, send_attempts: Array.from({ length: attempts }, () => ({})) });
    const varied = (v: ReturnType<typeof variation>) => ({ ...doc('quote', 'accepted', 'unpaid', 1), variations: [v] }) as Parameters<typeof awaitsClient>[0];
    expect(awaitsClient(varied(variation('awaiting_approval', 1)))).toBe(true);
    expect(awaitsClient(varied(variation('awaiting_approval', 0)))).toBe(false);
    expect(awaitsClient(varied(variation('approved', 1)))).toBe(false);
  });

  it('the query refetches every 15 s for those, and never for the others', async () => {
    const client = new QueryClient();
    let answer = { id: 'd1', type: 'quote', status: 'sent', payment_status: 'unpaid', send_attempts: [] };
    const options = liveDocumentDetailQuery({ get: async () => answer } as never, 'd1');
    const interval = (): unknown => {
      const query = client.getQueryCache().find({ queryKey: options.queryKey })!;
      return typeof options.refetchInterval === 'function' ? options.refetchInterval(query as never) : options.refetchInterval;
    };
    await client.fetchQuery(options);
    expect(interval()).toBe(LIVE_REFRESH_MS);
    expect(LIVE_REFRESH_MS).toBe(15_000);
    answer = { ...answer, status: 'accepted' };
    await client.refetchQueries({ queryKey: options.queryKey });
    expect(interval()).toBe(false);
  });
});
