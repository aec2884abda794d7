// The client's IP address, for per-IP limits and the audit log. The socket's peer address is the
// truth; X-Forwarded-For is believed only when that peer is a proxy we were told to trust
// (TRUSTED_PROXIES), and then only the hops our proxies added: walking the header from the right,
// the first address that is not one of our proxies is the client. Anything to its left was written
// by the client and could be anything.
import { isIP } from 'node:net';
import type { Context } from 'hono';

export const UNKNOWN_IP = 'unknown';

/** '::ffff:10.0.0.1' and '10.0.0.1' are one address. */
const normal = (ip: string): string => {
  const t = ip.trim().replace(/^\[|\]$/g, '');
  return t.toLowerCase().startsWith('::ffff:') && isIP(t.slice(7)) === 4 ? t.slice(7) : t.toLowerCase();
};

/** The peer address of the socket, when the request came through @hono/node-server; tests pass `{ remoteAddress }` as env. */
function peerOf(c: Context): string | undefined {
  const env = c.env as { incoming?: { socket?: { remoteAddress?: string } }; remoteAddress?: string } | undefined;
  return env?.incoming?.socket?.remoteAddress ?? env?.remoteAddress;
}

export function clientIpFrom(peer: string | undefined, forwardedFor: string | undefined, trusted: ReadonlySet<string>): string {
  if (!peer || !isIP(normal(peer))) return UNKNOWN_IP;
  let ip = normal(peer);
  if (!trusted.has(ip) || !forwardedFor) return ip;
  const hops = forwardedFor.split(',').map(normal).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    if (!isIP(hop)) return ip;
    ip = hop;
    if (!trusted.has(hop)) return hop;
  }
  return ip;
}

export function clientIp(c: Context, trusted: ReadonlySet<string>): string {
  return clientIpFrom(peerOf(c), c.req.header('x-forwarded-for'), trusted);
}

/** TRUSTED_PROXIES: a comma-separated list of IP addresses. */
export function parseTrustedProxies(value: string | undefined): ReadonlySet<string> {
  return new Set((value ?? '').split(',').map(normal).filter((ip) => ip && isIP(ip)));
}
