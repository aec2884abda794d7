// One error model (house style): every error answers JSON {detail} with the status that fits.
// Domain codes map to HTTP here and nowhere else.
import { DomainError } from '@tradie/domain';
import { ConcurrencyError, DuplicateEventError, StoreUnavailableError } from '@tradie/store';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ZodError } from 'zod';
import {
  AppError, BadRequest, Conflict, Forbidden, Gone, Internal, Invalid, LimitReached, NotFound, PaymentNeeded, RetryLater, TooLarge, Unauthenticated,
  UnsupportedType, UpstreamFailed,
} from '../errors.ts';

/** An error with a status and a detail a person can read. */
export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly detail: string;
  readonly extra: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;
  constructor(status: ContentfulStatusCode, detail: string, extra?: Record<string, unknown>, headers?: Record<string, string>) {
    super(detail);
    this.name = 'ApiError';
    this.status = status;
    this.detail = detail;
    this.extra = extra;
    this.headers = headers;
  }
}

/**
 * Each application error's status, the one place they are turned into HTTP (errors.ts). A
 * subclass not listed takes its parent's (Busy is a Conflict: 409; NotConnected a BadRequest: 400).
 */
const STATUS_OF: readonly [new (...args: never[]) => AppError, ContentfulStatusCode][] = [
  [BadRequest, 400],
  [Unauthenticated, 401],
  [PaymentNeeded, 402],
  [Forbidden, 403],
  [NotFound, 404],
  [Conflict, 409],
  [Gone, 410],
  [TooLarge, 413],
  [UnsupportedType, 415],
  [Invalid, 422],
  [LimitReached, 429],
  [Internal, 500],
  [UpstreamFailed, 502],
  [RetryLater, 503],
];

/** The HTTP status of an application error. */
export function statusOf(e: AppError): ContentfulStatusCode {
  return STATUS_OF.find(([cls]) => e instanceof cls)?.[1] ?? 500;
}

/** A refusal's status and sentence, whichever kind it is (an application error or an HTTP one); null for anything else (a fault). */
export function refusalOf(e: unknown): { status: number; detail: string } | null {
  if (e instanceof AppError) return { status: statusOf(e), detail: e.detail };
  if (e instanceof ApiError) return { status: e.status, detail: e.detail };
  return null;
}

/** The challenge a 401 carries, for a client that sent no token or an expired one. */
const challengeOf = (e: AppError): string | undefined => (e instanceof Unauthenticated ? (e.extra?.challenge as string | undefined) : undefined);

export const STALE_WRITE_DETAIL = 'Someone else changed this at the same time. Please reload and try again.';
export const STORE_DOWN_DETAIL = "We can't reach the database right now. Your data is safe — please try again in a moment.";

/**
 * 422 for a request that is readable but not valid; 400 where a schema marks an issue so
 * (`params.status: 400`: a value that cannot exist, such as a GST rate New Zealand does not have).
 */
export function zodStatus(e: ZodError): 400 | 422 {
  return e.issues.some((i) => i.code === 'custom' && (i as { params?: { status?: unknown } }).params?.status === 400) ? 400 : 422;
}

/** The first zod issue as a sentence, and every issue as {field, message}. */
export function zodProblem(e: ZodError): { detail: string; errors: { field: string; message: string }[] } {
  const errors = e.issues.map((i) => ({ field: i.path.join('.'), message: i.message }));
  const first = e.issues[0];
  let detail = first?.message ?? 'The request is not valid';
  // zod's generic messages name no field; add it so the sentence stands on its own.
  if (first && first.path.length > 0 && /^(Invalid input|Invalid option|Required$)/.test(detail)) detail = `${first.path.join('.')}: ${detail}`;
  return { detail, errors };
}

export type Logger = (level: 'error' | 'info', message: string, extra?: Record<string, unknown>) => void;

export function toResponse(c: Context, err: unknown, log: Logger): Response {
  if (err instanceof AppError) {
    if (err.retryAfter !== undefined) c.header('Retry-After', String(Math.max(1, Math.ceil(err.retryAfter))));
    const challenge = challengeOf(err);
    if (challenge) c.header('WWW-Authenticate', challenge);
    const { challenge: _challenge, ...extra } = err.extra ?? {};
    return c.json({ ...extra, detail: err.detail }, statusOf(err));
  }
  if (err instanceof ApiError) {
    for (const [k, v] of Object.entries(err.headers ?? {})) c.header(k, v);
    return c.json({ ...err.extra, detail: err.detail }, err.status);
  }
  if (err instanceof DomainError) {
    const status = err.code === 'VALIDATION' ? 422 : err.code === 'NOT_FOUND' ? 404 : 409;
    return c.json({ detail: err.detail }, status);
  }
  if (err instanceof ZodError) return c.json(zodProblem(err), zodStatus(err));
  if (err instanceof ConcurrencyError) return c.json({ detail: STALE_WRITE_DETAIL }, 409);
  if (err instanceof DuplicateEventError) return c.json({ detail: 'This was already recorded.' }, 409);
  if (err instanceof StoreUnavailableError) {
    c.header('Retry-After', '5');
    return c.json({ detail: STORE_DOWN_DETAIL }, 503);
  }
  if (err instanceof HTTPException) {
    const status = err.status;
    const detail = status === 413 ? 'The request is too large.' : err.message || 'The request could not be handled.';
    return c.json({ detail }, status as ContentfulStatusCode);
  }
  const e = err as { code?: unknown; detail?: unknown; status?: unknown };
  // Adapters' typed errors carry their own status and a readable detail (mail 503, provider 4xx/5xx).
  if (typeof e?.detail === 'string' && typeof e.status === 'number' && e.status >= 400 && e.status < 600) {
    return c.json({ detail: e.detail }, e.status as ContentfulStatusCode);
  }
  log('error', 'unhandled error', { error: err instanceof Error ? (err.stack ?? err.message) : String(err), path: c.req.path });
  return c.json({ detail: 'Something went wrong on our side. Please try again.' }, 500);
}
