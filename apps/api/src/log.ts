// One-line JSON logs on stderr. Never log tokens, secrets or request bodies.
import type { Logger } from './http/problem.ts';

export function createLogger(level: 'silent' | 'error' | 'info'): Logger {
  return (lvl, message, extra) => {
    if (level === 'silent' || (level === 'error' && lvl !== 'error')) return;
    process.stderr.write(`${JSON.stringify({ level: lvl, at: new Date().toISOString(), message, ...extra })}\n`);
  };
}
