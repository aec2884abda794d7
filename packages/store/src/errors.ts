// Driver errors to the store's typed errors. PGlite names the violated constraint `constraint`,
// postgres.js `constraint_name`; both carry the SQLSTATE in `code`.
import { StoreUnavailableError } from './types.ts';

interface DriverError {
  code?: string;
  constraint?: string;
  constraint_name?: string;
  errno?: string;
}

export const isUniqueViolation = (e: unknown, constraint: string): boolean => {
  const d = e as DriverError | null;
  return d?.code === '23505' && (d.constraint_name ?? d.constraint) === constraint;
};

// Network-level failures and the SQLSTATEs a server gives while it is going away or not ready.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH',
  'CONNECT_TIMEOUT', 'CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED',
  '57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006', '53300',
]);

export function isUnavailable(e: unknown): boolean {
  if (e instanceof StoreUnavailableError) return true;
  const d = e as DriverError | null;
  return !!d && ((d.code !== undefined && UNAVAILABLE_CODES.has(d.code)) || (d.errno !== undefined && UNAVAILABLE_CODES.has(d.errno)));
}

/** Rethrows connection failures as StoreUnavailableError (the API answers 503); anything else unchanged. */
export function mapDriverError(e: unknown): never {
  if (isUnavailable(e) && !(e instanceof StoreUnavailableError)) throw new StoreUnavailableError(e);
  throw e;
}
