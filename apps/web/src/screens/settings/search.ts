// The Settings screen's address: /app/settings?tab=billing. The selected tab lives in the URL so
// a reload, the Back button and Stripe's return (…?tab=billing&checkout=success) land on it.

export const SETTINGS_TABS = [
  { id: 'profile', label: 'Profile' },
  { id: 'account', label: 'Account' },
  { id: 'billing', label: 'Billing & Trial' },
  { id: 'business', label: 'Business & Logo' },
  { id: 'email', label: 'Email Settings' },
  { id: 'integrations', label: 'Integrations' },
  { id: 'currency', label: 'Currency' },
  { id: 'security', label: 'Security' },
] as const;

export type SettingsTab = (typeof SETTINGS_TABS)[number]['id'];

/** How Stripe Checkout sent the browser back (its success and cancel addresses). */
export type CheckoutReturn = 'success' | 'cancelled';

export interface SettingsSearch {
  tab?: SettingsTab;
  checkout?: CheckoutReturn;
}

const isTab = (v: unknown): v is SettingsTab => SETTINGS_TABS.some((t) => t.id === v);

/** Unknown tabs and values are dropped (the screen then opens on Profile); `session_id` is not kept. */
export function validateSettingsSearch(search: Record<string, unknown>): SettingsSearch {
  const out: SettingsSearch = {};
  if (isTab(search.tab)) out.tab = search.tab;
  if (search.checkout === 'success' || search.checkout === 'cancelled') out.checkout = search.checkout;
  return out;
}
