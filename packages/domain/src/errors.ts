/**
 * The domain's one error. `code` is stable and maps to HTTP in one place (the API's error
 * handler): VALIDATION 422, NOT_FOUND 404, CONFLICT 409. `detail` is the text a person reads.
 */
export type DomainErrorCode = 'VALIDATION' | 'NOT_FOUND' | 'CONFLICT';

export class DomainError extends Error {
  readonly code: DomainErrorCode;
  readonly detail: string;
  constructor(code: DomainErrorCode, detail: string) {
    super(detail);
    this.name = 'DomainError';
    this.code = code;
    this.detail = detail;
  }
}

export const invalid = (detail: string): DomainError => new DomainError('VALIDATION', detail);
export const notFound = (detail: string): DomainError => new DomainError('NOT_FOUND', detail);
export const conflict = (detail: string): DomainError => new DomainError('CONFLICT', detail);

/** For the exhaustive `never` check at the end of every switch over a union. */
export function assertNever(x: never): never {
  throw new Error(`Unhandled case: ${JSON.stringify(x)}`);
}
