// Settings → Integrations, once Xero is connected: where each cost category's bills go in Xero.
// Each category shows the account its bills are coded to (the standard chart's unless one was
// chosen), and a choice of the organisation's own expense accounts; a change saves at once and
// applies to bills sent or changed from then on.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { XeroBillAccounts as Accounts } from '@tradie/contracts';
import { api, errorDetail } from '../../api/client.ts';
import { RetryAlert } from '../../ui/Status.tsx';
import { useCommand } from '../shared/command.ts';
import { chooseXeroBillAccount, xeroBillAccountsQuery } from './queries.ts';

const STANDARD = '';
const titleOf = (category: string): string => category.charAt(0).toUpperCase() + category.slice(1);

export function XeroBillAccounts({ show }: { show: (text: string, failure: boolean) => void }) {
  const queryClient = useQueryClient();
  const query = useQuery(xeroBillAccountsQuery(api));
  const choose = useCommand({
    run: ({ category, code }: { category: string; code: string | null }) => chooseXeroBillAccount(api, category, code),
    failed: 'The account could not be saved',
    onDone: (saved: Accounts, { category }) => {
      queryClient.setQueryData(xeroBillAccountsQuery(api).queryKey, saved);
      const now = saved.categories.find((c) => c.category === category);
      const name = saved.accounts.find((a) => a.code === now?.code)?.name;
      show(`${titleOf(category)} costs now go to ${now?.code ?? ''}${name ? ` ${name}` : ''} in Xero`, false);
    },
    onFailed: (message) => show(message, true),
  });

  if (query.isPending) return <p className="integration-card__status">Reading your Xero accounts...</p>;
  if (query.isError) return <RetryAlert onRetry={() => void query.refetch()}>{errorDetail(query.error) ?? 'Your Xero accounts could not be read'}</RetryAlert>;
  const { categories, accounts } = query.data;
  const nameOf = (code: string) => accounts.find((a) => a.code === code)?.name ?? 'not in your Xero chart';

  return (
    <section className="xero-bill-accounts" aria-labelledby="xero-bill-accounts-title">
      <h3 id="xero-bill-accounts-title" className="xero-bill-accounts__title">
        Where your costs go in Xero
      </h3>
      <p className="field__hint">Each cost sent to Xero as a bill is coded to its category's account. Change one here: bills sent or changed from now on go there.</p>
      <ul className="xero-bill-accounts__list">
        {categories.map((c) => {
          const id = `xero-bill-account-${c.category.replace(/[^a-z0-9]+/g, '-')}`;
          return (
            <li key={c.category} className="field">
              <label htmlFor={id} className="field__label">
                {titleOf(c.category)}
              </label>
              <select
                id={id}
                className="input"
                value={c.chosen ? c.code : STANDARD}
                disabled={choose.pending}
                onChange={(e) => choose.run({ category: c.category, code: e.target.value === STANDARD ? null : e.target.value })}
              >
                <option value={STANDARD}>
                  Standard: {c.standard_code} {nameOf(c.standard_code)}
                </option>
                {accounts.map((a) => (
                  <option key={a.code} value={a.code}>
                    {a.code} {a.name}
                  </option>
                ))}
              </select>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
