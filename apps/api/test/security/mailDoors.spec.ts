// One door for mail (documents/sendGuard.ts): the API's source is read, and the mailer is called in
// exactly two places — sendForAccount, the door for every email on an account's behalf (documents,
// payment claims, reminders automatic and by hand, notices of a client's answers), and
// auth/accountMail.ts, the emails about the user's own account — and the account-mail door is used
// only by the account's own flows (confirmation, password reset, email change). A new path that
// calls the mailer another way, or sends something else as account mail, fails here.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') ? [path] : [];
  });
}

/** The files (relative to src/) whose code, comments left out, matches `pattern`. */
function filesMatching(pattern: RegExp): string[] {
  return sourceFiles(SRC)
    .filter((f) => pattern.test(readFileSync(f, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')))
    .map((f) => relative(SRC, f))
    .sort();
}

describe('every email leaves through one of two doors', () => {
  it("the mailer's send is called only by the door for an account's mail and the door for account emails", () => {
    // `.send(` on anything named mailer, however it is reached (deps.mailer, ports.mailer, a destructured mailer).
    expect(filesMatching(/\bmailer\s*\??\.\s*send\s*\(/)).toEqual(['auth/accountMail.ts', 'documents/sendGuard.ts']);
    // Nor by taking the method off the mailer to call it elsewhere.
    expect(filesMatching(/\{\s*send\s*\}\s*=\s*[\w.]*mailer\b|\bmailer\s*\.\s*send\b(?!\s*\()/)).toEqual([]);
  });

  it('the adapters send only when called: no other module builds a transport', () => {
    expect(filesMatching(/\bcreateTransport\s*\(/)).toEqual(['mail/outboxMailer.ts', 'mail/smtpMailer.ts']);
  });

  it("account emails go only to the user about their own account: nothing on the tradie's behalf uses that door", () => {
    expect(filesMatching(/\bsendAccountMail\b/).filter((f) => !f.startsWith('auth/') && !f.startsWith('account/'))).toEqual([]);
  });

  it('every path that emails a client or the tradie about their business calls the one door', () => {
    const callers = filesMatching(/\bsendForAccount\s*\(/);
    for (const door of ['documents/commands/send.ts', 'reminders/sender.ts', 'clientLinks/notify.ts']) expect(callers).toContain(door);
  });
});
