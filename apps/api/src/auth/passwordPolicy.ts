// A new password is at least 8 characters (the shared schema says so, for the screens too) and not
// one of the 10,000 most common passwords. The list is the ranked common-password dictionary of
// @zxcvbn-ts/language-common (MIT), compiled from leaked-password corpora; the first 10,000 are
// the ones an attacker tries first. It stays on the server: 80 KB is too much for a phone's first load.
import { dictionary } from '@zxcvbn-ts/language-common';

export const COMMON_PASSWORD_COUNT = 10_000;
export const COMMON_PASSWORD_MESSAGE = 'That password is one of the most common and easy to guess. Please choose another.';

let common: ReadonlySet<string> | undefined;

const key = (password: string): string => password.normalize('NFC').trim().toLowerCase();

/** True when `password` (ignoring case and surrounding spaces) is among the most common. */
export function isCommonPassword(password: string): boolean {
  common ??= new Set((dictionary['passwords-common'] as string[]).slice(0, COMMON_PASSWORD_COUNT).map(key));
  return common.has(key(password));
}
