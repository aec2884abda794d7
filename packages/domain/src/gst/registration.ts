// Whether the business is registered for GST (its settings), and what that does to a document.
//
// A business that is not registered charges no GST: every line of a quote or invoice it makes
// goes out at rate 0, and an invoice is an 'Invoice', never a 'Tax invoice'. A registered
// business charges GST as its lines say and issues tax invoices, which must show its GST number
// (s 19E), so nothing is given to a client while the number is missing. Decided when a document
// is drafted or revised and kept on it (`gstRegistered`), so an issued document keeps the GST it
// was issued with whatever the settings say later (docs/decisions/0023-gst-registration.md).
import { Decimal } from '../money/decimal.ts';

/** The business's registration, as its settings hold it now. */
export interface GstRegistration {
  registered: boolean;
  /** '' when none was entered. */
  gstNumber: string;
}

/** The lines as the business may charge them: unchanged when registered; otherwise each at rate 0, no price 'incl. GST'. */
export function linesAsRegistered<L extends { tax_rate: string; tax_included: boolean }>(lines: readonly L[], registered: boolean): L[] {
  return registered ? [...lines] : lines.map((l) => ({ ...l, tax_rate: '0', tax_included: false }));
}

/** True when any line carries GST (a rate above 0). */
export const chargesGst = (lines: readonly { tax_rate: string }[]): boolean => lines.some((l) => !new Decimal(l.tax_rate).isZero());

export const GST_REGISTRATION_MESSAGES = {
  noNumber:
    "You're registered for GST, but your GST number isn't in Settings yet. A tax invoice must show it: add it under Settings → Business, or switch off 'Registered for GST' if you aren't registered.",
  noNumberOnTaxInvoice:
    "This tax invoice was issued while you were registered for GST, so it must show your GST number. Add it under Settings → Business to send it again.",
  registeredSince: (noun: string) =>
    `You're registered for GST now, but this ${noun} was saved without GST. Open it, check the prices and save it again: it will then carry GST.`,
  notRegisteredSince: (noun: string) =>
    `You're not registered for GST, but this ${noun} was saved with GST. Open it, check the prices and save it again: it will then carry no GST.`,
} as const;
