/**
 * The fake Stripe and fake Xero the main e2e API server talks to (started by api-with-fakes.ts,
 * which writes where they are to E2E_DATA_DIR/e2e-fakes.json).
 *
 *   const fakes = readFakes();
 *   const invoices = await xeroInvoices();   // what the fake Xero holds
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const FAKES_FILE = 'e2e-fakes.json';

export interface FakesInfo {
  /** The fake Stripe (its checkout pages are at /checkout/{session}). */
  stripe: string;
  /** The fake Xero (the login page, identity server and API are path prefixes on it). */
  xero: string;
  xeroTenants: Array<{ tenantId: string; tenantName: string }>;
  /** What the fakes hold (GET /xero/invoices), and POST /xero/deny-next-consent. */
  control: string;
}

export interface FakeXeroInvoiceView {
  invoiceId: string;
  invoiceNumber: string;
  reference: string;
  status: string;
  tenantId: string;
  /** Xero's Total, "3.83". */
  total: string;
  /** Xero's AmountPaid, "100.00". */
  amountPaid: string;
}

export function readFakes(): FakesInfo {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set: run the tests through apps/web/playwright.config.ts');
  return JSON.parse(readFileSync(join(dir, FAKES_FILE), 'utf8')) as FakesInfo;
}

/** Every invoice in the fake Xero (all tenants). */
export async function xeroInvoices(): Promise<FakeXeroInvoiceView[]> {
  const res = await fetch(`${readFakes().control}/xero/invoices`);
  if (!res.ok) throw new Error(`fake Xero control: HTTP ${res.status}`);
  return (await res.json()) as FakeXeroInvoiceView[];
}

/** The next consent at the fake Xero is refused (as if the user pressed Cancel there). */
export async function denyNextXeroConsent(): Promise<void> {
  const res = await fetch(`${readFakes().control}/xero/deny-next-consent`, { method: 'POST' });
  if (res.status !== 204) throw new Error(`fake Xero control: HTTP ${res.status}`);
}

/** On: the fake Xero ignores the GST sent on each line and works out its own per line (so its total can differ from ours). */
export async function xeroComputesOwnTax(on: boolean): Promise<void> {
  const res = await fetch(`${readFakes().control}/xero/compute-own-tax?on=${on ? 1 : 0}`, { method: 'POST' });
  if (res.status !== 204) throw new Error(`fake Xero control: HTTP ${res.status}`);
}

/** The next call to `path` ('PUT /Payments') at the fake Xero is refused with Xero's validation error saying `message`. */
export async function xeroRefusesNext(path: string, message: string): Promise<void> {
  const res = await fetch(`${readFakes().control}/xero/refuse-next?${new URLSearchParams({ path, message })}`, { method: 'POST' });
  if (res.status !== 204) throw new Error(`fake Xero control: HTTP ${res.status}`);
}

/**
 * The invoice paid (amount given) or voided in Xero itself, by the bookkeeper; answers the webhook
 * delivery Xero posts about it, signed with the app's webhook key, to deliver to the API.
 */
export async function changeInXero(change: { invoiceId: string } & ({ pay: string } | { void: true })): Promise<{ body: string; signature: string }> {
  const q = 'pay' in change ? `pay-in-xero?${new URLSearchParams({ invoiceId: change.invoiceId, amount: change.pay })}` : `void-in-xero?${new URLSearchParams({ invoiceId: change.invoiceId })}`;
  const res = await fetch(`${readFakes().control}/xero/${q}`, { method: 'POST' });
  if (!res.ok) throw new Error(`fake Xero control: HTTP ${res.status}`);
  return (await res.json()) as { body: string; signature: string };
}
