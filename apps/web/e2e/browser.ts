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

export function chromiumLaunchOptions(env: NodeJS.ProcessEnv = process.env) {
  return { executablePath: chromiumPath(env), args: [...chromiumArgs] };
}
