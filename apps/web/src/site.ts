/**
 * Facts about the product that the public pages state: prices and legal commitments (plans, fees,
 * legal terms and privacy). Change them here and every page that quotes them follows.
 */
export const site = {
  name: 'Tradie Quotes',
  tagline: 'Know your real profit before you quote',
  /** The address people write to for help, privacy requests and data exports. Set before launch. */
  supportEmail: 'support@tradiequotes.co.nz',
  themeColour: '#0d4a63',
} as const;

export const plans = {
  trialDays: 14,
  fullAccessMonthly: '$7.50',
  /** Fees exclude GST and are billed monthly or annually. */
  feesNote: 'Prices in NZ dollars, excluding GST. Billed monthly or annually.',
  addOns: [
    { name: 'Timesheets', price: '+$3/month', detail: 'Log hours on the job and pull them straight into an invoice.' },
    { name: 'SMS payment reminders', price: '+$4/month', detail: 'A polite text to the client when an invoice falls due.' },
    { name: 'Team accounts', price: '+$5/user/month', detail: 'Give your crew or your office manager their own login.' },
  ],
  fullAccessIncludes: [
    'Unlimited invoices and quotes',
    'Unlimited clients',
    'PDF generation and email sending',
    'Invoice templates',
    'Profit calculator',
    'Accounting-service integration',
    'Priority support',
  ],
} as const;

/** The commitments the terms and the privacy policy make. */
export const commitments = {
  noticeDays: 30,
  liabilityMonths: 12,
  exportDaysAfterTermination: 30,
  deleteDaysAfterAccountDeletion: 30,
  invoiceRetentionYears: 7,
  privacyResponseWorkingDays: 20,
  minimumAge: 18,
} as const;
