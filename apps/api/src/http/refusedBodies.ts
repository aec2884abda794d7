// Request bodies the API refuses or never reads: the size limits, and what happens to a body left
// unread by the answer.
//
// A request answered before its body was read in full (413 for an oversized upload or JSON body,
// 401 for an upload without a token) still has the rest of that body on its way. Answering and
// closing at once makes the server's kernel reset the connection while the client is still writing,
// and a client that reads the answer only once it has sent everything — Node's fetch, most scripts —
// gets a network error (EPIPE) instead of the answer and its message. So, like nginx's lingering
// close, the rest of the body is read and thrown away first, up to LINGER_BYTES or LINGER_MS: a body
// that ends within them leaves the connection as good as any other (it stays open for the next
// request); one that does not is answered with Connection: close, and then the connection closes.
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './env.ts';

/** At most this much of a refused body is read and thrown away (nginx's lingering close reads for 30 s). */
export const LINGER_BYTES = 25 * 1024 * 1024;
/** …for at most this long. */
export const LINGER_MS = 10_000;

/** The readers of bodies a size limit stopped reading part-way (no Content-Length: counted as read), by request. */
const partlyRead = new WeakMap<Request, ReadableStreamDefaultReader<Uint8Array>>();

/**
 * Reads and throws away the rest of a body, up to `bounds`; answers whether it ended within them.
 * Past a bound the reader is left as it is (cancelling it would close the connection before the
 * answer is written); the connection's close ends it.
 */
export async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>, bounds: { bytes: number; ms: number } = { bytes: LINGER_BYTES, ms: LINGER_MS }): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), bounds.ms);
  });
  let read = 0;
  try {
    for (;;) {
      const next = reader.read();
      const got = await Promise.race([next, late]);
      if (got === 'late') {
        // The read still pending fails when the connection closes: nothing is waiting for it.
        next.catch(() => undefined);
        return false;
      }
      if (got.done) return true;
      read += got.value.byteLength;
      if (read > bounds.bytes) return false;
    }
  } catch {
    // The client went away: there is nothing left to read.
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * At most `maxSize` bytes of body, or 413 with `detail`. A declared Content-Length over the limit is
 * refused before any of it is read; a body without one is read and counted, and refused as soon as
 * it passes the limit (its reader kept for lingerOnUnreadBodies). The body read is handed on whole.
 */
export function limitBody(maxSize: number, detail: string): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const raw = c.req.raw;
    if (!raw.body) return next();
    const declared = raw.headers.get('content-length');
    if (declared !== null && !raw.headers.has('transfer-encoding')) return Number(declared) > maxSize ? c.json({ detail }, 413) : next();
    const reader = raw.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxSize) {
        partlyRead.set(raw, reader);
        return c.json({ detail }, 413);
      }
      chunks.push(value);
    }
    c.req.raw = new Request(raw, { body: Buffer.concat(chunks) });
    return next();
  };
}

/**
 * After the answer: a body the request left unread (or a size limit left part-read) is read and
 * thrown away, within LINGER_BYTES and LINGER_MS, before the answer goes; past them the answer says
 * Connection: close. A body the route read is left alone.
 */
export function lingerOnUnreadBodies(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const raw = c.req.raw;
    await next();
    let reader = partlyRead.get(raw);
    if (!reader) {
      const body = c.req.raw.body;
      if (!body || c.req.raw.bodyUsed) return;
      // Locked by a reader this cannot reach: what is left of the body is unknown, so the connection closes.
      reader = body.locked ? undefined : body.getReader();
    }
    if (reader && (await discardRest(reader))) return;
    try {
      c.res.headers.set('Connection', 'close');
    } catch {
      // A response with immutable headers: answered as a copy that can say it.
      const copy = new Response(c.res.body, c.res);
      copy.headers.set('Connection', 'close');
      c.res = copy;
    }
  };
}
