// The business's own numbers — its GST number, NZBN and the bank account its clients pay into —
// are checked before they are saved. A value that fails is a field error the tradie must fix, or,
// where the check may be behind the real world, keep on purpose:
// - a GST number or NZBN whose check digits fail (IRD or the registry may issue outside what the
//   check knows): kept when the tradie says so;
// - a bank account with a bank or branch we do not know (banks open branches): kept when the
//   tradie says so; one that is not four parts, or whose check digits fail on a branch we know,
//   is a typo and must be fixed.
// A valid bank account is saved written the usual way (12-3456-0123456-00).
import { BANK_ACCOUNT_MESSAGES, checkBankAccount } from './nzBankAccount.ts';
import { checkIrdNumber, checkNzbn, identifierWarnings, type FieldWarning } from './nzIdentifiers.ts';

/** The fields a tradie can keep as typed when their check fails. */
export const CHECKED_BUSINESS_FIELDS = ['gst_number', 'nzbn', 'bank_account_number'] as const;
export type CheckedBusinessField = (typeof CHECKED_BUSINESS_FIELDS)[number];

export interface BusinessFieldError {
  field: CheckedBusinessField;
  message: string;
  /** True when the tradie may keep the value as typed (`keep_as_entered`). */
  keepable: boolean;
}

export const BUSINESS_IDENTIFIER_MESSAGES = {
  gstNumber: "This GST number doesn't add up — please check it against your IRD letter, or keep it as it is if IRD gave it to you.",
  nzbn: "This NZBN doesn't add up — please check it against the NZBN register, or keep it as it is if it's right.",
  summary: (n: number) => (n === 1 ? 'Please check the number marked below before saving.' : `Please check the ${n} numbers marked below before saving.`),
} as const;

export interface BusinessIdentifierCheck {
  errors: BusinessFieldError[];
  /** The bank account number to save (formatted when valid); undefined when none was given. */
  bankAccountNumber: string | undefined;
}

/**
 * Checks the numbers present in `fields` ('' or absent is not checked: blank clears, absent keeps).
 * `keep` names the fields the tradie chose to keep as typed; it lifts only keepable errors.
 */
export function checkBusinessIdentifiers(
  fields: Partial<Record<CheckedBusinessField, string | undefined>>,
  keep: readonly CheckedBusinessField[] = [],
): BusinessIdentifierCheck {
  const errors: BusinessFieldError[] = [];
  const refuse = (e: BusinessFieldError) => {
    if (!(e.keepable && keep.includes(e.field))) errors.push(e);
  };
  const gst = fields.gst_number?.trim();
  if (gst && !checkIrdNumber(gst).valid) refuse({ field: 'gst_number', message: BUSINESS_IDENTIFIER_MESSAGES.gstNumber, keepable: true });
  const nzbn = fields.nzbn?.trim();
  if (nzbn && !checkNzbn(nzbn).valid) refuse({ field: 'nzbn', message: BUSINESS_IDENTIFIER_MESSAGES.nzbn, keepable: true });
  let bankAccountNumber = fields.bank_account_number?.trim();
  if (bankAccountNumber) {
    const bank = checkBankAccount(bankAccountNumber);
    if (bank.valid) bankAccountNumber = bank.formatted;
    else refuse({ field: 'bank_account_number', message: BANK_ACCOUNT_MESSAGES[bank.reason], keepable: bank.reason === 'bank' || bank.reason === 'branch' });
  }
  return { errors, bankAccountNumber };
}

export const BANK_ACCOUNT_KEPT_WARNING = "This bank account number isn't one we can check — please make sure it's right before clients pay into it";

/** Warnings for numbers saved as they were typed (kept on purpose, or saved before they were checked). */
export function businessIdentifierWarnings(s: { gst_number: string; nzbn: string; bank_account_number: string }): FieldWarning[] {
  const out = identifierWarnings({ gst_number: s.gst_number, nzbn: s.nzbn });
  const bank = s.bank_account_number.trim();
  if (bank && !checkBankAccount(bank).valid) out.push({ field: 'bank_account_number', message: BANK_ACCOUNT_KEPT_WARNING });
  return out;
}
