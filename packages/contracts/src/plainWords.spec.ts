// What a settings form shows when the server refuses a value: the schema's own sentence, in words
// a tradie reads, never the validator's default ('Too small: expected number to be >=0',
// 'Invalid input: expected number, received null'). Every settings-like body is tried with wrong
// numbers, wrong types and missing values, and each refusal's message is checked.
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { onlinePaymentSettingsInput } from './clientLinks.ts';
import { pricingSettingsInput } from './pricing.ts';
import { reminderSettingsInput } from './reminders.ts';
import { businessSettingsInput } from './settings.ts';
import { setupInput } from './setup.ts';

/** The validator's own wording: what no refusal may say. */
const VALIDATOR_WORDS = /expected|too small|too big|invalid input|invalid option|received|>=|<=|NaN/i;

const messages = (schema: z.ZodType, body: unknown): string[] => {
  const parsed = schema.safeParse(body);
  return parsed.success ? [] : parsed.error.issues.map((i) => i.message);
};

const step = { id: 'overdue-7', offset_days: 7, subject: 'Overdue', message: 'Please pay' };

describe('settings refusals are in plain words', () => {
  const cases: [string, z.ZodType, unknown][] = [
    ['reminders: a negative minimum balance', reminderSettingsInput, { enabled: true, steps: [step], minimum_balance: -5 }],
    ['reminders: a minimum balance that is not a number', reminderSettingsInput, { enabled: true, steps: [step], minimum_balance: null }],
    ['reminders: a minimum balance typed as text', reminderSettingsInput, { enabled: true, steps: [step], minimum_balance: 'fifty' }],
    ['reminders: a huge minimum balance', reminderSettingsInput, { enabled: true, steps: [step], minimum_balance: 1e12 }],
    ['reminders: a step a year overdue', reminderSettingsInput, { enabled: true, steps: [{ ...step, offset_days: 1000 }], minimum_balance: 0 }],
    ['reminders: a step before the due date by a year', reminderSettingsInput, { enabled: true, steps: [{ ...step, offset_days: -1000 }], minimum_balance: 0 }],
    ['reminders: a step on half a day', reminderSettingsInput, { enabled: true, steps: [{ ...step, offset_days: 1.5 }], minimum_balance: 0 }],
    ['reminders: a step with no day', reminderSettingsInput, { enabled: true, steps: [{ ...step, offset_days: null }], minimum_balance: 0 }],
    ['reminders: no switch', reminderSettingsInput, { steps: [step], minimum_balance: 0 }],
    ['reminders: no steps list', reminderSettingsInput, { enabled: true, minimum_balance: 0 }],
    ['reminders: a subject that is not text', reminderSettingsInput, { enabled: true, steps: [{ ...step, subject: 5 }], minimum_balance: 0 }],
    ['reminders: an overlong subject', reminderSettingsInput, { enabled: true, steps: [{ ...step, subject: 'x'.repeat(5000) }], minimum_balance: 0 }],
    ['reminders: an overlong message', reminderSettingsInput, { enabled: true, steps: [{ ...step, message: 'x'.repeat(100_000) }], minimum_balance: 0 }],
    ['payments: a negative surcharge', onlinePaymentSettingsInput, { surcharge_enabled: true, surcharge_percent: -1 }],
    ['payments: a surcharge that is not a number', onlinePaymentSettingsInput, { surcharge_enabled: true, surcharge_percent: null }],
    ['payments: no switch', onlinePaymentSettingsInput, { surcharge_percent: 1 }],
    ['business: a name that is not text', businessSettingsInput, { business_name: 5 }],
    ['business: keep_as_entered too long', businessSettingsInput, { keep_as_entered: ['gst_number', 'gst_number', 'gst_number', 'gst_number', 'gst_number'] }],
    ['pricing: a rate that is not an amount', pricingSettingsInput, { labour_charge_out_rate: 'lots' }],
    ['pricing: a category with no name', pricingSettingsInput, { categories: [{ percent: '10' }] }],
    ['set-up: wrong payment terms', setupInput, { default_payment_terms: 'whenever' }],
  ];
  it.each(cases)('%s', (_name, schema, body) => {
    const said = messages(schema, body);
    expect(said.length).toBeGreaterThan(0);
    for (const m of said) expect(m).not.toMatch(VALIDATOR_WORDS);
  });
});
