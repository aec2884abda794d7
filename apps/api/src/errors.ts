// The application's refusals, by name. Use cases, reactions and adapters throw these (or the
// domain's DomainError); they say what went wrong in words a tradie can read (`detail`) and
// nothing about HTTP. http/problem.ts maps each class to its status once, and the outbox decides
// a retry by the class (RetryLater, Busy), never by a status and a sentence.

/** A refusal with a sentence for the person, and fields the problem response carries beside it (e.g. `errors`). */
export class AppError extends Error {
  readonly detail: string;
  readonly extra: Record<string, unknown> | undefined;
  /** Seconds after which trying again makes sense (the answer's Retry-After), where it does. */
  readonly retryAfter: number | undefined;
  constructor(detail: string, extra?: Record<string, unknown>, retryAfter?: number) {
    super(detail);
    this.name = new.target.name;
    this.detail = detail;
    this.extra = extra;
    this.retryAfter = retryAfter;
  }
}

/** The request cannot be read at all (a malformed id, header or file). */
export class BadRequest extends AppError {}
/** Not signed in, or the sign-in is no longer good. */
export class Unauthenticated extends AppError {}
/** The plan does not include this (a trial that ended). */
export class PaymentNeeded extends AppError {}
/** Signed in, but not allowed to do this. */
export class Forbidden extends AppError {}
/** There is no such thing for this account (another account's is "not found" too). */
export class NotFound extends AppError {}
/** The state of things does not allow it (already accepted, already paid, not connected…). */
export class Conflict extends AppError {}
/** Another request or process is doing the same thing right now: worth trying again shortly. */
export class Busy extends Conflict {}
/** An outside service (Xero, Stripe) is not connected for the account: the request cannot be served as asked (400). */
export class NotConnected extends BadRequest {}
/** It was here and is gone for good (a withdrawn link, a closed business). */
export class Gone extends AppError {}
/** Too large to take. */
export class TooLarge extends AppError {}
/** A kind of content the endpoint does not take. */
export class UnsupportedType extends AppError {}
/** Readable, but not valid: the sentence says which field and why (`extra.errors` lists them). */
export class Invalid extends AppError {}
/** A limit was reached (sign-in attempts, emails a day): `retryAfter` says when to try again. */
export class LimitReached extends AppError {}
/** An outside service refused or failed (Xero, Stripe, the mail server answered with an error). */
export class UpstreamFailed extends AppError {}
/** Could not be done now, nothing was lost: try again later (`retryAfter`). */
export class RetryLater extends AppError {}
/** A fault of ours that the person can do nothing about (a misconfiguration). */
export class Internal extends AppError {}
