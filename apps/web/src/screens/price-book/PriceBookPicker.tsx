// The calculator line's price book picker: search as you type (name or supplier's code), pick an
// item, and the line is filled by the domain's lineFromPriceBookItem — the item's name, its sell
// price (or its cost priced as 'Price from cost' prices it: its category's markup or margin from
// Settings, or the percentage typed for the job) and its GST rate. Loaded only when
// a tradie opens it, so the calculator's first load carries none of it.
import { useQuery } from '@tanstack/react-query';
import { formatNzdPrice, lineFromPriceBookItem, type LinePricing } from '@tradie/domain';
import type { PriceBookItemRecord } from '@tradie/contracts';
import { useId, useState } from 'react';
import { api, errorDetail } from '../../api/client.ts';
import { ErrorAlert } from '../../ui/Status.tsx';
import type { PickedLine } from '../calculator/calculatorModel.ts';
import { priceBookSearchQuery } from './queries.ts';
import './priceBook.css';

interface Props {
  /** Names the picker for a screen reader ('Line 2'). */
  lineLabel: string;
  /** How 'Price from cost' prices now (basis, each category's percentage, labour rates), read when the list shows. */
  pricing: () => LinePricing;
  onPick(line: PickedLine): void;
  onClose(): void;
}

/** The price a picked line gets, as the list shows it beside each item. */
export const pickedPrice = (item: PriceBookItemRecord, rule: LinePricing): string => lineFromPriceBookItem(item, rule).unit_price;

export function PriceBookPicker({ lineLabel, pricing, onPick, onClose }: Props) {
  const [q, setQ] = useState('');
  const id = useId();
  const search = useQuery({ ...priceBookSearchQuery(api, q, 8), enabled: q.trim() !== '' });
  const items = search.data?.items ?? [];
  const rule = pricing();
  return (
    <div className="price-picker" role="group" aria-label={`${lineLabel}: pick from the price book`}>
      <label htmlFor={`${id}-q`} className="field__label">
        Search price book
      </label>
      <input
        id={`${id}-q`}
        className="input"
        type="search"
        autoFocus
        autoComplete="off"
        enterKeyHint="search"
        placeholder="Name or supplier code, e.g. copper 15"
        value={q}
        maxLength={200}
        onChange={(e) => setQ(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onClose();
        }}
      />
      {search.isError && <ErrorAlert message={errorDetail(search.error) ?? "Couldn't search the price book. Try again."} />}
      {q.trim() !== '' && search.isSuccess && items.length === 0 && <p className="field__hint">Nothing in your price book matches “{q.trim()}”.</p>}
      {items.length > 0 && (
        <ul className="price-picker__list" aria-label="Matching items">
          {items.map((item) => (
            <li key={item.id}>
              <button type="button" className="price-picker__item" onClick={() => onPick(lineFromPriceBookItem(item, rule))}>
                <span className="price-picker__name">{item.name}</span>
                <span className="price-picker__meta">
                  {item.supplier_code !== '' && <span>{item.supplier_code} · </span>}
                  {formatNzdPrice(pickedPrice(item, rule))} / {item.unit}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="button button--secondary button--compact price-picker__close" onClick={onClose}>
        Close
      </button>
    </div>
  );
}
