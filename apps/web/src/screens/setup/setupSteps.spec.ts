import { describe, expect, it } from 'vitest';
import type { BusinessSettingsRecord, SetupRecord } from '@tradie/contracts';
import { nextStep, previousStep, settingsBodyFor, setupBodyAfter, setupValuesOf, stepNumber } from './setupSteps.ts';

const setup: SetupRecord = { step: 'business', finished: null, trade: '', default_payment_terms: '7 days' };
const settings = { business_name: 'Ngata Plumbing', gst_number: '', bank_account_name: '', bank_account_number: '', phone: '', email: '' } as BusinessSettingsRecord;

describe('the set-up steps', () => {
  it('go in order, business first and trade last', () => {
    expect(stepNumber('business')).toBe(1);
    expect(nextStep('business')).toBe('gst');
    expect(nextStep('trade')).toBeNull();
    expect(previousStep('business')).toBeNull();
    expect(previousStep('gst')).toBe('business');
  });

  it("send each step's business settings, and the GST registration by its setting name", () => {
    const v = { ...setupValuesOf(settings, setup), gst_registered: true, gst_number: '49-091-850' };
    expect(settingsBodyFor('gst', v, [])).toEqual({ gst_registered: true, gst_number: '49-091-850' });
    expect(settingsBodyFor('gst', { ...v, gst_registered: false }, ['gst_number'])).toEqual({ gst_registered: false, gst_number: '', keep_as_entered: ['gst_number'] });
    expect(settingsBodyFor('bank', { ...v, bank_account_number: '12345' }, ['gst_number'])).toEqual({ bank_account_name: '', bank_account_number: '12345' });
    expect(settingsBodyFor('terms', v, [])).toBeNull();
  });

  it('move the step reached on, and finish after the last', () => {
    const v = { ...setupValuesOf(settings, setup), trade: 'plumber' as const, default_payment_terms: '14 days' as const };
    expect(setupBodyAfter('bank', v, true)).toEqual({ step: 'contact' });
    expect(setupBodyAfter('terms', v, true)).toEqual({ default_payment_terms: '14 days', step: 'trade' });
    expect(setupBodyAfter('terms', v, false)).toEqual({ step: 'trade' });
    expect(setupBodyAfter('trade', v, true)).toEqual({ trade: 'plumber', finished: 'done' });
  });

  it('read a GST number as registered while the server has no registration setting', () => {
    expect(setupValuesOf({ ...settings, gst_number: '49-091-850' }, setup).gst_registered).toBe(true);
    expect(setupValuesOf({ ...settings, gst_registered: false } as BusinessSettingsRecord, setup).gst_registered).toBe(false);
  });
});
