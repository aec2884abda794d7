/** How every browser run here launches Debian's Chromium (no downloaded browser builds). */
export const chromiumArgs: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

/**
 * Chromium draws its own controls (a date field's dd/mm/yyyy) in the language of its user
 * interface, which it takes from LANGUAGE: New Zealand English, as a tradie's phone would be (it
 * needs Debian's chromium-l10n; without it Chromium falls back to US English). Pages' own dates
 * follow each test's `locale: 'en-NZ'`.
 */
export function chromiumLaunchOptions(env: NodeJS.ProcessEnv = process.env) {
  return { executablePath: chromiumPath(env), args: [...chromiumArgs], env: { ...env, LANGUAGE: 'en_NZ' } };
}
