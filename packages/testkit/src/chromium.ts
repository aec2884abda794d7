// Debian's Chromium, launched the one way that works on these machines (no downloaded browser
// builds, no background networking on a closed network).
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_ARGS: readonly string[] = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

export const chromiumPath = (env: NodeJS.ProcessEnv = process.env): string => env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: chromiumPath(), args: [...CHROMIUM_ARGS] });
