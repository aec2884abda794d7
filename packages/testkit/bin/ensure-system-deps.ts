// Makes sure the programs the tests drive are on this machine: Chromium (Playwright) and its
// translations (chromium-l10n, for New Zealand date fields),
// poppler-utils (pdftotext/pdftoppm read PDFs back), a PostgreSQL server (the *.pg.spec.ts
// suites) and the fonts screenshots are taken with (DejaVu for macrons, Noto Color Emoji so an
// emoji in a name or a note is drawn, not a box). On a fresh Debian machine, as root, it installs
// what is missing with apt-get.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';

const has = (cmd: string): boolean => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

function postgresBinDir(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base).filter((v) => existsSync(`${base}/${v}/bin/postgres`)).sort((a, b) => Number(b) - Number(a));
  return versions[0] ? `${base}/${versions[0]}/bin` : undefined;
}

const missing: string[] = [];
if (!existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium')) missing.push('chromium');
// Chromium's user-interface languages: without them its date fields show US dates (mm/dd/yyyy).
if (!process.env.CHROMIUM_PATH && !existsSync('/usr/lib/chromium/locales/en-GB.pak')) missing.push('chromium-l10n');
if (!has('pdftotext') || !has('pdftoppm')) missing.push('poppler-utils');
if (!postgresBinDir()) missing.push('postgresql');
if (!has('fc-list') || !existsSync('/usr/share/fonts/truetype/dejavu')) missing.push('fonts-dejavu-core');
if (!existsSync('/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf')) missing.push('fonts-noto-color-emoji');

if (missing.length === 0) {
  console.log('system packages: chromium, poppler-utils, postgresql, fonts present');
  process.exit(0);
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot || !has('apt-get')) {
  console.error(`Missing system packages: ${missing.join(', ')}. Install them (Debian: sudo apt-get install -y ${missing.join(' ')}) and run again.`);
  process.exit(1);
}
console.log(`installing system packages: ${missing.join(', ')}`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { stdio: 'inherit', env });
