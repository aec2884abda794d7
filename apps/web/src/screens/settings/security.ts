// Settings → Security: the words, and how an audit entry's time and browser are shown. Pure, so
// the screen's tests need no browser.
import { formatNzDate, NZ_TIME_ZONE, nzDateOf } from '@tradie/domain';

export const SECURITY_TEXT = {
  activityTitle: 'Recent security activity',
  activityIntro: 'Sign-ins, password changes and connections to other services on your account. If something here wasn’t you, change your password and sign out everywhere.',
  empty: 'No security activity yet',
  loading: 'Loading security activity...',
  loadFailed: 'Error loading your security activity. Please try again.',
  retry: 'Try again',
  showMore: 'Show more',
  loadingMore: 'Loading...',
  signOutTitle: 'Sign out everywhere',
  signOutIntro: 'Lost a phone, or signed in on someone else’s computer? This signs out every device where you are signed in, including this one.',
  signOutButton: 'Sign out everywhere',
  signingOut: 'Signing out...',
  signOutConfirm: 'Sign out of every device, including this one?',
  signOutFailed: 'Error signing out of every device. Please try again.',
} as const;

const timeFormat = new Intl.DateTimeFormat('en-NZ', { timeZone: NZ_TIME_ZONE, hour: 'numeric', minute: '2-digit', hour12: true });

/** '05/05/2026, 9:30 am' in New Zealand time: the app's date (dd/mm/yyyy) and a 12-hour clock. */
export function formatAuditTime(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  // Some ICU versions put a narrow no-break space before 'am'; a plain space wraps like the rest.
  const time = timeFormat.format(at).replace(/[\u202f\u00a0]/g, ' ').toLowerCase();
  return `${formatNzDate(nzDateOf(at))}, ${time}`;
}

const BROWSERS: [RegExp, string][] = [
  [/\b(?:Edg|EdgA|EdgiOS|Edge)\//, 'Edge'],
  [/\b(?:OPR|OPT|Opera)\//, 'Opera'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\//, 'Firefox'],
  [/\b(?:Chrome|CriOS|HeadlessChrome|Chromium)\//, 'Chrome'],
  [/\bVersion\/[\d.]+.*\bSafari\//, 'Safari'],
  [/\bcurl\//i, 'curl'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\biPhone\b/, 'iPhone'],
  [/\biPad\b/, 'iPad'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bWindows\b/, 'Windows'],
  [/\bMac OS X\b|\bMacintosh\b/, 'Mac'],
  [/\bLinux\b/, 'Linux'],
];

/** 'Safari on iPhone', 'Chrome on Android', 'Firefox'… from a User-Agent; 'Unknown browser' when it says nothing we know. */
export function browserName(userAgent: string | null | undefined): string {
  const ua = userAgent ?? '';
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  if (browser) return browser;
  if (system) return `A browser on ${system}`;
  return 'Unknown browser';
}

/** The address as shown: nothing when the server could not tell. */
export const shownIp = (ip: string | null): string | null => (ip && ip !== 'unknown' ? ip : null);
