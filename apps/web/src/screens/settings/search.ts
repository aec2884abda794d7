// The Settings screen's address: /app/settings?tab=billing. The selected tab lives in the URL so
// a reload, the Back button and Stripe's returns (…?tab=billing&checkout=success,
// …?tab=payments&connect=done) land on it.

export const SETTINGS_TABS = [
  { id: 'profile', label: 'Profile' },
  { id: 'account', label: 'Account' },
  { id: 'billing', label: 'Billing & Trial' },
  { id: 'business', label: 'Business & Logo' },
  { id: 'pricing', label: 'Pricing' },
  { id: 'email', label: 'Email Settings' },
  { id: 'integrations', label: 'Integrations' },
  { id: 'payments', label: 'Payments' },
  { id: 'reminders', label: 'Reminders' },
  { id: 'currency', label: 'Currency' },
  { id: 'security', label: 'Security' },
] as const;

export type SettingsTab = (typeof SETTINGS_TABS)[number]['id'];

/** How Stripe Checkout sent the browser back (its success and cancel addresses). */
export type CheckoutReturn = 'success' | 'cancelled';

/** How Stripe's onboarding for card payments sent the browser back: finished, or its link ran out. */
export type ConnectReturn = 'done' | 'refresh';

export interface SettingsSearch {
  tab?: SettingsTab;
  checkout?: CheckoutReturn;
  connect?: ConnectReturn;
}

const isTab = (v: unknown): v is SettingsTab => SETTINGS_TABS.some((t) => t.id === v);

/** Unknown tabs and values are dropped (the screen then opens on Profile); `session_id` is not kept. */
export function validateSettingsSearch(search: Record<string, unknown>): SettingsSearch {
  const out: SettingsSearch = {};
  if (isTab(search.tab)) out.tab = search.tab;
  if (search.checkout === 'success' || search.checkout === 'cancelled') out.checkout = search.checkout;
  if (search.connect === 'done' || search.connect === 'refresh') out.connect = search.connect;
  return out;
}
