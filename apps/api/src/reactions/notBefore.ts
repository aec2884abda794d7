// A reaction's answer 'not yet, and not a failure' (outbox.ts), in a module of its own so a handler
// can throw it without importing the registry that imports the handler.

/**
 * Not yet, and not a failure: the row is run again at `at`, without counting an attempt (a notice
 * that waits for its hour, an email the account's sending limits hold back until their window ends).
 */
export class NotBefore extends Error {
  readonly at: Date;
  constructor(at: Date, message: string) {
    super(message);
    this.name = 'NotBefore';
    this.at = at;
  }
}
