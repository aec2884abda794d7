// The first-run set-up's steps: what each asks, what it sends, and where it goes next. Pure, so
// the screen and its tests share it.
import { SETUP_STEPS, type BusinessSettingsInput, type BusinessSettingsRecord, type SetupInput, type SetupRecord, type SetupStep } from '@tradie/contracts';
import type { CheckedBusinessField, PaymentTerms } from '@tradie/domain';

export const SETUP_TEXT = {
  title: "Let's set up your business",
  intro: 'A few quick questions so your quotes and invoices are ready to send. You can change any of it later in Settings.',
  next: 'Save and continue',
  finish: 'Finish',
  skip: 'Skip this step',
  back: 'Back',
  later: 'Set up later',
  saving: 'Saving...',
  failed: "We couldn't save that. Please try again.",
  homeCard: 'Finish setting up your business',
  homeCardText: (n: number, of: number) => `Step ${n} of ${of}: your business details, GST, bank account and more.`,
} as const;

export const STEP_TITLES: Record<SetupStep, string> = {
  business: "What's your business called?",
  gst: 'Are you registered for GST?',
  bank: 'Where should clients pay you?',
  contact: 'How can clients reach you?',
  logo: 'Add your logo',
  terms: 'When do you want to be paid?',
  trade: "What's your trade?",
};

/** What the set-up edits. `gst_registered` is the business setting of that name. */
export interface SetupValues {
  business_name: string;
  gst_registered: boolean;
  gst_number: string;
  bank_account_name: string;
  bank_account_number: string;
  phone: string;
  email: string;
  default_payment_terms: PaymentTerms;
  trade: SetupRecord['trade'];
}

/** The business settings as the set-up reads them (gst_registered where the server has it; else a GST number means registered). */
export function setupValuesOf(settings: BusinessSettingsRecord, setup: SetupRecord): SetupValues {
  const registered = (settings as BusinessSettingsRecord & { gst_registered?: boolean }).gst_registered;
  return {
    business_name: settings.business_name,
    gst_registered: registered ?? settings.gst_number.trim() !== '',
    gst_number: settings.gst_number,
    bank_account_name: settings.bank_account_name,
    bank_account_number: settings.bank_account_number,
    phone: settings.phone,
    email: settings.email,
    default_payment_terms: setup.default_payment_terms,
    trade: setup.trade,
  };
}

export const stepNumber = (step: SetupStep): number => SETUP_STEPS.indexOf(step) + 1;
export const nextStep = (step: SetupStep): SetupStep | null => SETUP_STEPS[SETUP_STEPS.indexOf(step) + 1] ?? null;
export const previousStep = (step: SetupStep): SetupStep | null => SETUP_STEPS[SETUP_STEPS.indexOf(step) - 1] ?? null;

/** PUT /business-settings for a step, or null when the step saves nothing there. */
export function settingsBodyFor(step: SetupStep, v: SetupValues, keep: readonly CheckedBusinessField[]): (BusinessSettingsInput & { gst_registered?: boolean }) | null {
  const kept = (fields: CheckedBusinessField[]) => {
    const k = keep.filter((f) => fields.includes(f));
    return k.length > 0 ? { keep_as_entered: k } : {};
  };
  switch (step) {
    case 'business':
      return { business_name: v.business_name };
    case 'gst':
      return { gst_registered: v.gst_registered, gst_number: v.gst_registered ? v.gst_number : '', ...kept(['gst_number']) };
    case 'bank':
      return { bank_account_name: v.bank_account_name, bank_account_number: v.bank_account_number, ...kept(['bank_account_number']) };
    case 'contact':
      return { phone: v.phone, email: v.email };
    default:
      return null;
  }
}

/** PUT /setup after a step is saved or skipped: the next step, or done after the last. */
export function setupBodyAfter(step: SetupStep, v: SetupValues, saved: boolean): SetupInput {
  const next = nextStep(step);
  const facts: SetupInput = saved && step === 'terms' ? { default_payment_terms: v.default_payment_terms } : saved && step === 'trade' && v.trade !== '' ? { trade: v.trade } : {};
  return { ...facts, ...(next ? { step: next } : { finished: 'done' }) };
}
