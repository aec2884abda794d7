// Settings → Pricing: how 'Price from cost' prices a line. Each category's markup on cost or margin
// on price (the business's basis), the five built-in categories renamed but never removed, the
// business's own added; the labour charge-out rate and what an hour costs the business.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type KeyboardEvent } from 'react';
import type { PricingSettingsRecord } from '@tradie/contracts';
import { CATEGORY_LIMITS, MARGIN_BASIS_LABELS, MAX_MARGIN_PERCENT } from '@tradie/domain';
import { api, errorDetail } from '../../api/client.ts';
import { Card } from '../../ui/Card.tsx';
import { FormField } from '../../ui/FormField.tsx';
import { LoadingLine, RetryAlert } from '../../ui/Status.tsx';
import { useCommand } from '../shared/command.ts';
import { pricingKey, pricingQuery, savePricing } from '../shared/pricing.ts';

export const PRICING_TAB_TEXT = {
  saved: 'Pricing saved',
  saveFailed: 'Error saving the pricing',
  add: 'Add category',
  save: 'Save pricing',
} as const;

interface Props {
  onMessage: (text: string, failure: boolean) => void;
}

export function PricingTab({ onMessage }: Props) {
  const query = useQuery(pricingQuery(api));
  if (query.isPending) return <LoadingLine>Loading pricing...</LoadingLine>;
  if (query.isError) return <RetryAlert onRetry={() => void query.refetch()}>{errorDetail(query.error) ?? 'Could not load the pricing'}</RetryAlert>;
  return <PricingForm key={JSON.stringify(query.data)} saved={query.data} onMessage={onMessage} />;
}

interface CategoryRow {
  key: string;
  id: string | undefined;
  name: string;
  percent: string;
  builtIn: boolean;
}

function PricingForm({ saved, onMessage }: { saved: PricingSettingsRecord; onMessage: Props['onMessage'] }) {
  const queryClient = useQueryClient();
  const [rows, setRows] = useState<CategoryRow[]>(() => saved.categories.map((c) => ({ key: c.id, id: c.id, name: c.name, percent: c.percent, builtIn: c.built_in })));
  const [chargeOut, setChargeOut] = useState(saved.labour_charge_out_rate ?? '');
  const [costRate, setCostRate] = useState(saved.labour_cost_rate ?? '');
  const [added, setAdded] = useState(0);
  const save = useCommand({
    run: () =>
      savePricing(api, {
        categories: rows.map((r) => ({ ...(r.id === undefined ? {} : { id: r.id }), name: r.name, percent: r.percent.trim() })),
        labour_charge_out_rate: chargeOut.trim() === '' ? null : chargeOut,
        labour_cost_rate: costRate.trim() === '' ? null : costRate,
      }),
    failed: 'please try again',
    onDone: (record) => {
      queryClient.setQueryData(pricingKey, record);
      onMessage(PRICING_TAB_TEXT.saved, false);
    },
    onFailed: (detail) => onMessage(`${PRICING_TAB_TEXT.saveFailed}: ${detail}`, true),
  });
  const submit = () => save.run();
  // The tab sits inside the Settings form: Enter in a box here saves the pricing, not the business.
  const onEnter = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key !== 'Enter' || !(e.target instanceof HTMLInputElement)) return;
    e.preventDefault();
    submit();
  };
  const change = (key: string, patch: Partial<CategoryRow>) => setRows((all) => all.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  const words = MARGIN_BASIS_LABELS[saved.basis];
  const full = rows.length >= CATEGORY_LIMITS.maxCategories;

  return (
    <div onKeyDown={onEnter}>
      <Card titleId="settings-pricing-title" title="Price from cost">
        <p className="card__intro">
          &lsquo;Price from cost&rsquo; on a quote prices each line that has a cost at its category&rsquo;s {words.toLowerCase()} (at most {MAX_MARGIN_PERCENT[saved.basis]}%). You choose markup or margin on the
          calculator.
        </p>
        <ul className="pricing-categories">
          {rows.map((r) => (
            <li key={r.key} className="pricing-category form-grid">
              <FormField id={`pricing-${r.key}-name`} label="Category" hint={r.builtIn ? 'Built in: rename it if you like' : undefined}>
                {(describedBy) => (
                  <input id={`pricing-${r.key}-name`} className="input" type="text" maxLength={CATEGORY_LIMITS.name} value={r.name} aria-describedby={describedBy} onChange={(e) => change(r.key, { name: e.target.value })} />
                )}
              </FormField>
              <FormField id={`pricing-${r.key}-percent`} label={`${r.name || 'Category'} ${words.toLowerCase()} %`}>
                {(describedBy) => (
                  <input
                    id={`pricing-${r.key}-percent`}
                    className="input input--number input--short"
                    type="text"
                    inputMode="decimal"
                    value={r.percent}
                    aria-describedby={describedBy}
                    onChange={(e) => change(r.key, { percent: e.target.value })}
                  />
                )}
              </FormField>
              {!r.builtIn && (
                <button type="button" className="button button--secondary" onClick={() => setRows((all) => all.filter((x) => x.key !== r.key))}>
                  Remove {r.name || 'category'}
                </button>
              )}
            </li>
          ))}
        </ul>
        <button
          type="button"
          className="button button--secondary"
          disabled={full}
          onClick={() => {
            setRows((all) => [...all, { key: `new-${added}`, id: undefined, name: '', percent: rows.find((r) => r.id === 'other')?.percent ?? '25', builtIn: false }]);
            setAdded((n) => n + 1);
          }}
        >
          {PRICING_TAB_TEXT.add}
        </button>
        {full && <p className="field__hint">You can have at most {CATEGORY_LIMITS.maxCategories} categories.</p>}
      </Card>

      <Card titleId="settings-labour-title" title="Labour">
        <p className="card__intro">A labour line on a quote is its hours at your charge-out rate, and costs you its hours at your cost per hour. Both excl. GST.</p>
        <div className="form-grid">
          <FormField id="pricing-charge-out" label="Charge-out rate per hour" hint="What you charge the client for an hour">
            {(describedBy) => <input id="pricing-charge-out" className="input input--number" type="text" inputMode="decimal" value={chargeOut} aria-describedby={describedBy} onChange={(e) => setChargeOut(e.target.value)} />}
          </FormField>
          <FormField id="pricing-cost-rate" label="Cost per hour" hint="Wages and on-costs: what an hour costs you">
            {(describedBy) => <input id="pricing-cost-rate" className="input input--number" type="text" inputMode="decimal" value={costRate} aria-describedby={describedBy} onChange={(e) => setCostRate(e.target.value)} />}
          </FormField>
        </div>
      </Card>
      <button type="button" className="button button--accent button--block" disabled={save.pending} aria-busy={save.pending} onClick={submit}>
        {save.pending ? 'Saving...' : PRICING_TAB_TEXT.save}
      </button>
    </div>
  );
}
