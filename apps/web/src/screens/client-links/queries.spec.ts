import { describe, expect, it, vi } from 'vitest';
import { sendViewBeacon } from './queries.ts';

describe('the view beacon', () => {
  it('goes by sendBeacon when the browser queues it', () => {
    const sendBeacon = vi.fn(() => true);
    const fetcher = vi.fn(() => Promise.resolve(new Response(null, { status: 204 })));
    sendViewBeacon('tok_1', { sendBeacon }, fetcher);
    expect(sendBeacon).toHaveBeenCalledWith('/api/v1/public/links/tok_1/viewed');
    expect(fetcher).not.toHaveBeenCalled();
  });

  it('falls back to a keepalive POST when there is no beacon or it is refused', () => {
    const fetcher = vi.fn(() => Promise.resolve(new Response(null, { status: 204 })));
    sendViewBeacon('tok_2', { sendBeacon: () => false }, fetcher);
    sendViewBeacon('tok_3', undefined, fetcher);
    expect(fetcher.mock.calls).toEqual([
      ['/api/v1/public/links/tok_2/viewed', { method: 'POST', keepalive: true, credentials: 'omit' }],
      ['/api/v1/public/links/tok_3/viewed', { method: 'POST', keepalive: true, credentials: 'omit' }],
    ]);
  });
});
