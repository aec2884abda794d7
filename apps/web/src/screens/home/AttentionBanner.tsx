// A home screen banner of things the business must look at, each with its invoice and a button that
// takes it off the list (emails a mail server refused; card payments to sort out in Stripe).
import { type QueryKey, type UseQueryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { errorDetail } from '../../api/client.ts';
import { useCommand } from '../shared/command.ts';

export interface AttentionItem {
  id: string;
  text: string;
  documentId: string | null;
  reference: string | null;
  /** Where else it is dealt with (a page of Stripe's dashboard), opened in a new tab. */
  elsewhere?: { href: string; label: string };
}

/**
 * A server list of `{items}` and the call that takes one item off it: the list, the call (the item
 * leaves the cached list once the server agrees), the item it is busy with, and its error.
 */
export function useListUntilDone<T extends { id: string }, K extends QueryKey>(query: UseQueryOptions<{ items: T[] }, Error, { items: T[] }, K>, done: (id: string) => Promise<void>) {
  const queryClient = useQueryClient();
  const list = useQuery(query);
  const call = useCommand({
    run: done,
    onDone: (_, id) => queryClient.setQueryData<{ items: T[] }>(query.queryKey, (prev) => (prev ? { ...prev, items: prev.items.filter((i) => i.id !== id) } : prev)),
  });
  return { items: list.data?.items ?? [], act: (id: string) => call.run(id), busyId: call.input ?? null, error: call.failure };
}

export function AttentionBanner({
  name,
  title,
  items,
  action,
  actionFor,
  onAction,
  busyId,
  error,
  failed,
}: {
  /** Names the banner's heading id and test id. */
  name: string;
  title: string;
  items: readonly AttentionItem[];
  /** The button that takes an item off the list ('Dismiss', 'Done'). */
  action: string;
  /** What the button does to an item, for a screen reader ('the failure for INV-0007'). */
  actionFor: (item: AttentionItem) => string;
  onAction: (id: string) => void;
  busyId: string | null;
  error: unknown;
  /** Said when the button's request failed without a reason from the server. */
  failed: string;
}) {
  if (items.length === 0) return null;
  return (
    <section className="callout callout--error home-failures" aria-labelledby={`home-${name}-title`} data-testid={`home-${name}`}>
      <h2 id={`home-${name}-title`} className="home-failures__title">
        {title}
      </h2>
      <ul className="home-failures__list">
        {items.map((item) => (
          <li key={item.id} className="home-failures__item">
            <p className="home-failures__text">{item.text}</p>
            <div className="home-failures__actions">
              {item.documentId && (
                <Link to="/app/invoices/$id" params={{ id: item.documentId }} className="button button--ghost button--compact">
                  Open {item.reference ?? 'the invoice'}
                </Link>
              )}
              {item.elsewhere && (
                <a href={item.elsewhere.href} target="_blank" rel="noopener noreferrer" className="button button--ghost button--compact">
                  {item.elsewhere.label}
                  <span className="visually-hidden"> (opens in a new tab)</span>
                </a>
              )}
              <button type="button" className="button button--ghost button--compact" onClick={() => onAction(item.id)} disabled={busyId === item.id}>
                {action}
                <span className="visually-hidden"> {actionFor(item)}</span>
              </button>
            </div>
          </li>
        ))}
      </ul>
      {error != null && <p role="alert">{errorDetail(error) ?? failed}</p>}
    </section>
  );
}
