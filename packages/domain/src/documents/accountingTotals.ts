// Does the accounting system's copy of an invoice add up to ours? After every push the app keeps
// the totals the system answered with (AccountingTotalsReported); this compares them with the
// domain's totals of the invoice and says the first difference in words the detail screen shows.
import { documentTotals } from '../gst/gst.ts';
import { formatNzd, toCents } from '../money/money.ts';
import { accountingProviderName } from './accountingProviders.ts';
import type { DocumentView } from './document.ts';

export interface AccountingDifference {
  /** The first figure that differs: the total, else the GST, else the subtotal. */
  field: 'total' | 'gst' | 'subtotal';
  theirsCents: bigint;
  oursCents: bigint;
}


/** The first figure the accounting system shows differently, or null when they agree or it has not answered yet. */
export function accountingDifference(d: DocumentView): AccountingDifference | null {
  const reported = d.sync?.reported;
  if (!reported) return null;
  const ours = documentTotals(d.lines, d.gstRounding);
  const pairs: Array<[AccountingDifference['field'], string, bigint]> = [
    ['total', reported.total, ours.totalCents],
    ['gst', reported.gst, ours.gstCents],
    ['subtotal', reported.subtotal, ours.subtotalCents],
  ];
  for (const [field, theirs, oursCents] of pairs) {
    const theirsCents = toCents(theirs);
    if (theirsCents !== oursCents) return { field, theirsCents, oursCents };
  }
  return null;
}

/** 'Xero shows $3.84 — this invoice is $3.83' (the GST or subtotal named when the total agrees). */
export function accountingDifferenceText(provider: string, diff: AccountingDifference): string {
  const name = accountingProviderName(provider);
  const theirs = formatNzd(diff.theirsCents);
  const ours = formatNzd(diff.oursCents);
  switch (diff.field) {
    case 'total':
      return `${name} shows ${theirs} — this invoice is ${ours}`;
    case 'gst':
      return `${name} shows ${theirs} GST — this invoice has ${ours} GST`;
    case 'subtotal':
      return `${name} shows a subtotal of ${theirs} — this invoice's is ${ours}`;
  }
}
