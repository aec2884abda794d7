// What a report's corrections were, named as what they are: an invoice voided is not a credit
// note, and a payment removed is not money paid back ('Includes 1 invoice voided and 1 credit note
// in this period').

export interface CorrectionKinds {
  invoices_voided: number;
  credit_notes: number;
  payments_removed: number;
  refunds: number;
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** '1 invoice voided and 1 credit note', '2 payments removed, 1 refund and …': the kinds there are, in words. */
export function correctionWords(k: CorrectionKinds): string {
  const parts = [
    k.invoices_voided > 0 ? plural(k.invoices_voided, 'invoice voided', 'invoices voided') : '',
    k.credit_notes > 0 ? plural(k.credit_notes, 'credit note', 'credit notes') : '',
    k.payments_removed > 0 ? plural(k.payments_removed, 'payment removed', 'payments removed') : '',
    k.refunds > 0 ? plural(k.refunds, 'refund paid back', 'refunds paid back') : '',
  ].filter((p) => p !== '');
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)!}`;
}
