// The web app's one way to save and one way to load, counted in the source: commands go through
// useCommand (screens/shared/command.ts), components make no API calls of their own (the calls live
// in the screens' queries modules), no browser alert, and each query is imported from where it is
// defined (no re-exports under another name).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.tsx?$/.test(e.name) && !/\.spec\.tsx?$/.test(e.name) && e.name !== 'testKit.tsx' ? [path] : [];
  });
}

const files = sources(SRC).map((path) => ({ path: relative(SRC, path), text: readFileSync(path, 'utf8') }));
const where = (pattern: RegExp, only: (path: string) => boolean = () => true) => files.filter((f) => only(f.path) && pattern.test(f.text)).map((f) => f.path);

describe('the web app’s source', () => {
  it('saves one way: useMutation only inside useCommand, no hand-written busy flag, no window.alert', () => {
    expect(where(/\buseMutation\b/)).toEqual(['screens/shared/command.ts']);
    expect(where(/\bsetBusy\(/)).toEqual([]);
    expect(where(/\bwindow\.alert\b/)).toEqual([]);
    // Nor a hand-written 'once at a time' guard beside it: the command's own guard is the one.
    expect(where(/\bsetPending\(|\binFlight\b|\buseOnce\b/, (p) => p.startsWith('screens/') || p.startsWith('ui/'))).toEqual([]);
  });

  it('has no API call in a component file', () => {
    expect(where(/\bapi\.(get|post|put|patch|del|upload|blob|getWithHeaders)\b|createApiClient\(/, (p) => p.endsWith('.tsx'))).toEqual([]);
  });

  it('re-exports nothing under another module’s name', () => {
    expect(where(/^export \{[^}]*\}( from '[^']+')?;/m)).toEqual([]);
  });
});
