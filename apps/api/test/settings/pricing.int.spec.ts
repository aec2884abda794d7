// GET/PUT /business-settings/pricing through the HTTP app on PGlite: the defaults, categories
// renamed and added, percentages and labour rates saved exactly, every refusal a 422 with a
// `detail` that saves nothing, the basis switch held to what the categories can price, one account's
// pricing never another's.
import { describe, expect, it } from 'vitest';
import { signUp, useTestApp } from '../support/testApp.ts';

const DEFAULTS = [
  { id: 'materials', name: 'Materials', percent: '25', built_in: true },
  { id: 'labour', name: 'Labour', percent: '25', built_in: true },
  { id: 'subcontractor', name: 'Subcontractor', percent: '25', built_in: true },
  { id: 'equipment', name: 'Equipment', percent: '25', built_in: true },
  { id: 'other', name: 'Other', percent: '25', built_in: true },
];
const sent = (cats: { id?: string; name: string; percent: string | number }[]) => ({ categories: cats });
const defaultsSent = () => DEFAULTS.map(({ id, name, percent }) => ({ id, name, percent }));

describe('pricing settings', () => {
  const t = useTestApp();

  it('starts with the five categories at 25 % on the markup basis and no labour rates', async () => {
    const { token } = await signUp(t);
    const r = await t.get('/business-settings/pricing', token);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ basis: 'markup', categories: DEFAULTS, labour_charge_out_rate: null, labour_cost_rate: null });
  });

  it('saves percentages per category, renames a built-in one, adds one of its own, and keeps the labour rates exactly', async () => {
    const { token } = await signUp(t);
    const cats = defaultsSent().map((c) => (c.id === 'materials' ? { ...c, percent: '20' } : c.id === 'labour' ? { ...c, name: 'Time', percent: 35 } : c));
    const r = await t.put('/business-settings/pricing', { ...sent([...cats, { name: 'Hire gear', percent: '12.5' }]), labour_charge_out_rate: '$95.50', labour_cost_rate: 52.25 }, token);
    expect(r.status).toBe(200);
    expect(r.json.categories.map((c: { id: string; name: string; percent: string; built_in: boolean }) => [c.id, c.name, c.percent, c.built_in])).toEqual([
      ['materials', 'Materials', '20', true], ['labour', 'Time', '35', true], ['subcontractor', 'Subcontractor', '25', true], ['equipment', 'Equipment', '25', true],
      ['other', 'Other', '25', true], ['hire-gear', 'Hire gear', '12.5', false],
    ]);
    expect(r.json).toMatchObject({ labour_charge_out_rate: '95.5', labour_cost_rate: '52.25' });
    expect((await t.get('/business-settings/pricing', token)).json).toEqual(r.json);
    // Rates alone keep the categories; null clears a rate.
    const rates = await t.put('/business-settings/pricing', { labour_cost_rate: null }, token);
    expect(rates.json.categories).toEqual(r.json.categories);
    expect(rates.json).toMatchObject({ labour_charge_out_rate: '95.5', labour_cost_rate: null });
  });

  it.each([
    ['a built-in category left out', { categories: defaultsSent().filter((c) => c.id !== 'labour') }, "The category 'Labour' can be renamed but not removed"],
    ['a negative percentage', { categories: defaultsSent().map((c) => (c.id === 'other' ? { ...c, percent: '-5' } : c)) }, 'Other: the percentage must be a number of 0 or more, with at most 2 decimal places'],
    ['a percentage that is not a number', { categories: defaultsSent().map((c) => (c.id === 'other' ? { ...c, percent: 'lots' } : c)) }, 'Other: the percentage must be a number of 0 or more, with at most 2 decimal places'],
    ['a markup over 100 %', { categories: defaultsSent().map((c) => (c.id === 'materials' ? { ...c, percent: '150' } : c)) }, 'Materials: a markup on cost can be at most 100%'],
    ['a blank name', { categories: [...defaultsSent(), { name: '  ', percent: '1' }] }, "A category's name must be 1 to 40 characters"],
    ['a name with no letter or digit', { categories: [...defaultsSent(), { name: '---', percent: '1' }] }, "'---' needs a letter or a digit to be a category name"],
    ['the same category twice', { categories: [...defaultsSent(), { id: 'other', name: 'Other', percent: '1' }] }, "The category 'Other' is there twice"],
    ['a negative rate', { labour_cost_rate: '-1' }, 'The cost per hour cannot be negative'],
    ['a rate that is not an amount', { labour_charge_out_rate: 'ninety' }, 'The charge-out rate is not a number: "ninety"'],
  ])('refuses %s with a 422 saying what is wrong, and saves nothing', async (_name, body, detail) => {
    const { token } = await signUp(t);
    const r = await t.put('/business-settings/pricing', body, token);
    expect(r.status).toBe(422);
    expect(r.json.detail).toBe(detail);
    expect((await t.get('/business-settings/pricing', token)).json.categories).toEqual(DEFAULTS);
  });

  it('on the margin basis a category is at most 95 %; switching to margin with a markup above 95 % is refused until it is lowered', async () => {
    const { token } = await signUp(t);
    await t.put('/business-settings/pricing', sent(defaultsSent().map((c) => (c.id === 'materials' ? { ...c, percent: '100' } : c))), token);
    const refused = await t.put('/business-settings', { margin_basis: 'margin' }, token);
    expect(refused.status).toBe(422);
    expect(refused.json.detail).toBe('A margin on price can be at most 95%: lower Materials (100%) in Settings → Pricing first, then switch to margin on price.');
    expect((await t.get('/business-settings', token)).json.margin_basis).toBe('markup');
    await t.put('/business-settings/pricing', sent(defaultsSent()), token);
    expect((await t.put('/business-settings', { margin_basis: 'margin' }, token)).status).toBe(200);
    expect((await t.get('/business-settings/pricing', token)).json.basis).toBe('margin');
    const over = await t.put('/business-settings/pricing', sent(defaultsSent().map((c) => (c.id === 'labour' ? { ...c, percent: '96' } : c))), token);
    expect(over.status).toBe(422);
    expect(over.json.detail).toBe('Labour: a margin on price can be at most 95%');
  });

  it("is the account's own: another account's pricing is untouched and unseen, and signing in is needed", async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    await t.put('/business-settings/pricing', { ...sent(defaultsSent().map((c) => ({ ...c, percent: '40' }))), labour_charge_out_rate: '90' }, a.token);
    expect((await t.get('/business-settings/pricing', b.token)).json).toEqual({ basis: 'markup', categories: DEFAULTS, labour_charge_out_rate: null, labour_cost_rate: null });
    expect((await t.get('/business-settings/pricing')).status).toBe(401);
  });
});
