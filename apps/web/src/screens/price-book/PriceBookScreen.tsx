// The Price book screen (/app/price-book): search the items as you type, add and edit one (its price
// history under it), and import a supplier's CSV price list — pick the file, map its columns, see
// the first rows and every refused row with its reason, then import. Loaded only when opened.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { PriceBookItemInput, PriceBookItemRecord, PriceListImportResult, PriceListMappingInput, PriceListMappingRecord, PriceListPreview } from '@tradie/contracts';
import { formatNzdPrice } from '@tradie/domain';
import { useState } from 'react';
import { api, errorDetail } from '../../api/client.ts';
import { Card } from '../../ui/Card.tsx';
import { ErrorAlert, LoadingBlock } from '../../ui/Status.tsx';
import { useCommand } from '../shared/command.ts';
import { createItem, deleteItem, importPriceList, invalidatePriceBook, previewPriceList, priceBookItemQuery, priceBookSearchQuery, updateItem } from './queries.ts';
import './priceBook.css';

type Panel = { kind: 'list' } | { kind: 'add' } | { kind: 'edit'; item: PriceBookItemRecord } | { kind: 'import' };

export function PriceBookScreen() {
  const [q, setQ] = useState('');
  const [panel, setPanel] = useState<Panel>({ kind: 'list' });
  const list = useQuery(priceBookSearchQuery(api, q, 50));
  const back = () => setPanel({ kind: 'list' });

  if (panel.kind === 'add' || panel.kind === 'edit') return <ItemForm item={panel.kind === 'edit' ? panel.item : null} onDone={back} />;
  if (panel.kind === 'import') return <ImportPanel onDone={back} />;

  const items = list.data?.items ?? [];
  return (
    <div className="price-book">
      <h1>Price book</h1>
      <div className="price-book__actions">
        <button type="button" className="button button--primary" onClick={() => setPanel({ kind: 'add' })}>
          Add item
        </button>
        <button type="button" className="button button--secondary" onClick={() => setPanel({ kind: 'import' })}>
          Import price list
        </button>
      </div>
      <div className="field">
        <label htmlFor="price-book-q" className="field__label">
          Search
        </label>
        <input id="price-book-q" className="input" type="search" autoComplete="off" placeholder="Name or supplier code" maxLength={200} value={q} onChange={(e) => setQ(e.target.value)} />
      </div>
      {list.isPending && <LoadingBlock />}
      {list.isError && <ErrorAlert message={errorDetail(list.error) ?? "Couldn't load your price book. Try again."} />}
      {list.isSuccess && items.length === 0 && (
        <p className="field__hint">{q.trim() === '' ? 'Your price book is empty. Add the things you buy, or import a supplier’s price list.' : `Nothing matches “${q.trim()}”.`}</p>
      )}
      <ul className="price-book__list" aria-label="Price book items">
        {items.map((item) => (
          <li key={item.id}>
            <button type="button" className="price-book__item" onClick={() => setPanel({ kind: 'edit', item })}>
              <span className="price-book__name">{item.name}</span>
              <span className="price-book__meta">
                Cost {formatNzdPrice(item.cost)} / {item.unit}
                {item.sell !== null && ` · Sell ${formatNzdPrice(item.sell)}`}
                {item.supplier !== '' && ` · ${item.supplier}`}
                {item.supplier_code !== '' && ` ${item.supplier_code}`}
              </span>
            </button>
          </li>
        ))}
      </ul>
      {list.data?.has_more && <p className="field__hint">Showing the first 50. Search to find the rest.</p>}
    </div>
  );
}

function ItemForm({ item, onDone }: { item: PriceBookItemRecord | null; onDone(): void }) {
  const queryClient = useQueryClient();
  const [fields, setFields] = useState({
    name: item?.name ?? '',
    unit: item?.unit ?? 'each',
    category: item?.category ?? 'materials',
    cost: item?.cost ?? '',
    sell: item?.sell ?? '',
    supplier: item?.supplier ?? '',
    supplier_code: item?.supplier_code ?? '',
    gst_rate: item?.gst_rate ?? '0.15',
  });
  const detail = useQuery({ ...priceBookItemQuery(api, item?.id ?? ''), enabled: item !== null });
  const set = (name: keyof typeof fields) => (e: { target: { value: string } }) => setFields((f) => ({ ...f, [name]: e.target.value }));

  const save = useCommand({
    run: async (body: PriceBookItemInput) => {
      if (item) await updateItem(api, item.id, body, item.version);
      else await createItem(api, body);
      await invalidatePriceBook(queryClient);
    },
    failed: "Couldn't save the item. Try again.",
    onDone: () => onDone(),
  });
  const remove = useCommand({
    run: async (id: string) => {
      await deleteItem(api, id);
      await invalidatePriceBook(queryClient);
    },
    failed: "Couldn't delete the item. Try again.",
    onDone: () => onDone(),
  });
  const error = save.error ?? remove.error;
  const busy = save.pending || remove.pending;

  const field = (name: keyof typeof fields, label: string, props: Record<string, unknown> = {}) => (
    <div className="field">
      <label htmlFor={`pb-${name}`} className="field__label">
        {label}
      </label>
      <input id={`pb-${name}`} className="input" value={fields[name]} onChange={set(name)} {...props} />
    </div>
  );

  return (
    <form
      className="price-book__form"
      onSubmit={save.submit(() => ({ ok: true, body: { ...fields, description: item?.description ?? '', sell: fields.sell.trim() === '' ? null : fields.sell } }))}
      noValidate
    >
      <h1>{item ? 'Edit item' : 'Add item'}</h1>
      {field('name', 'Name', { required: true, maxLength: 200 })}
      {field('cost', 'Cost excl. GST ($)', { inputMode: 'decimal', required: true })}
      {field('sell', 'Sell price excl. GST ($, leave empty to price from cost)', { inputMode: 'decimal' })}
      {field('unit', 'Unit', { maxLength: 20 })}
      {field('category', 'Category', { maxLength: 40 })}
      {field('supplier', 'Supplier', { maxLength: 100 })}
      {field('supplier_code', "Supplier's code", { maxLength: 60 })}
      <div className="field">
        <label htmlFor="pb-gst" className="field__label">
          GST
        </label>
        <select id="pb-gst" className="input" value={fields.gst_rate} onChange={set('gst_rate')}>
          <option value="0.15">15% GST</option>
          <option value="0">No GST (zero-rated)</option>
        </select>
      </div>
      {error && <ErrorAlert message={error} />}
      <div className="price-book__actions">
        <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy}>
          Save
        </button>
        <button type="button" className="button button--secondary" onClick={onDone}>
          Cancel
        </button>
        {item && (
          <button type="button" className="button button--secondary" onClick={() => remove.run(item.id)} disabled={busy}>
            Delete
          </button>
        )}
      </div>
      {item && detail.data && detail.data.price_changes.length > 0 && (
        <Card titleId="pb-history" title="Price changes">
          <ul className="price-book__list">
            {detail.data.price_changes.map((c) => (
              <li key={`${c.changed_at}-${c.cost_to}`} className="price-book__meta">
                {c.changed_at.slice(0, 10)}: cost {c.cost_from === null ? '' : `${formatNzdPrice(c.cost_from)} → `}
                {formatNzdPrice(c.cost_to)} ({c.source === 'imported' ? 'price list' : 'edited'})
              </li>
            ))}
          </ul>
        </Card>
      )}
    </form>
  );
}

const MAX_FILE_BYTES = 5 * 1024 * 1024;

/** The mapping as the API takes it, or null while a column is still to be chosen. */
function mappingInput(m: PriceListMappingRecord): PriceListMappingInput | null {
  if (!m.code || !m.description || !m.price || !m.price_kind || !m.gst) return null;
  return { code: m.code, description: m.description, unit: m.unit, price: m.price, price_kind: m.price_kind, discount_percent: m.discount_percent ?? '0', gst: m.gst };
}

function ImportPanel({ onDone }: { onDone(): void }) {
  const queryClient = useQueryClient();
  const [supplier, setSupplier] = useState('');
  const [csv, setCsv] = useState<string | null>(null);
  const [preview, setPreview] = useState<PriceListPreview | null>(null);
  const [mapping, setMapping] = useState<PriceListMappingRecord | null>(null);
  const [result, setResult] = useState<PriceListImportResult | null>(null);
  // A file refused in the browser (too large), before anything is sent.
  const [tooLarge, setTooLarge] = useState<string | null>(null);
  const step = useCommand({ run: (fn: () => Promise<void>) => fn(), failed: "Couldn't read that price list. Try again." });
  const run = (fn: () => Promise<void>) => {
    setTooLarge(null);
    step.run(fn);
  };
  const error = tooLarge ?? step.error;
  const busy = step.pending;
  const loadPreview = (text: string, m: PriceListMappingRecord | null) =>
    run(async () => {
      const p = await previewPriceList(api, { supplier, csv: text, mapping: m ? mappingInput(m) : null });
      setPreview(p);
      setMapping(p.mapping);
    });

  const pickFile = async (file: File | undefined) => {
    setResult(null);
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      setTooLarge('That price list is too large: at most 5 MB. Split it into smaller files and import each.');
      return;
    }
    const text = await file.text();
    setCsv(text);
    loadPreview(text, null);
  };
  const remap = (change: Partial<PriceListMappingRecord>) => {
    if (!mapping || csv === null) return;
    const next = { ...mapping, ...change };
    setMapping(next);
    loadPreview(csv, next);
  };
  const doImport = () =>
    run(async () => {
      if (!mapping || csv === null || !preview || preview.problems.length > 0) return;
      const input = mappingInput(mapping);
      if (!input) return;
      const r = await importPriceList(api, { supplier, csv, mapping: input });
      setResult(r);
      await invalidatePriceBook(queryClient);
    });

  const column = (key: 'code' | 'description' | 'unit' | 'price', label: string) => (
    <div className="field">
      <label htmlFor={`pl-${key}`} className="field__label">
        {label}
      </label>
      <select id={`pl-${key}`} className="input" value={mapping?.[key] ?? ''} onChange={(e) => remap({ [key]: e.target.value === '' ? null : e.target.value })}>
        <option value="">{key === 'unit' ? '(none: each)' : 'Choose a column'}</option>
        {preview?.headers.map((h) => (
          <option key={h} value={h}>
            {h}
          </option>
        ))}
      </select>
    </div>
  );

  return (
    <div className="price-book__import">
      <h1>Import price list</h1>
      <div className="field">
        <label htmlFor="pl-supplier" className="field__label">
          Supplier
        </label>
        <input id="pl-supplier" className="input" value={supplier} maxLength={100} placeholder="e.g. Plumbing World" onChange={(e) => setSupplier(e.target.value)} />
      </div>
      <div className="field">
        <label htmlFor="pl-file" className="field__label">
          Price list (CSV file)
        </label>
        <input id="pl-file" className="input" type="file" accept=".csv,text/csv" disabled={supplier.trim() === '' || busy} onChange={(e) => void pickFile(e.target.files?.[0])} />
        {supplier.trim() === '' && <p className="field__hint">Enter the supplier first: their items are matched by the supplier’s code.</p>}
      </div>
      {error && <ErrorAlert message={error} />}
      {busy && <LoadingBlock />}
      {preview && mapping && (
        <>
          <Card titleId="pl-columns" title="Columns">
            {column('code', "Supplier's code")}
            {column('description', 'Description')}
            {column('unit', 'Unit')}
            {column('price', 'Price')}
            <div className="field">
              <label htmlFor="pl-kind" className="field__label">
                The price is
              </label>
              <select id="pl-kind" className="input" value={mapping.price_kind ?? ''} onChange={(e) => remap({ price_kind: e.target.value === 'list' ? 'list' : 'cost' })}>
                <option value="cost">What I pay (trade price)</option>
                <option value="list">A list price, less my trade discount</option>
              </select>
            </div>
            {mapping.price_kind === 'list' && (
              <div className="field">
                <label htmlFor="pl-discount" className="field__label">
                  Trade discount %
                </label>
                <input id="pl-discount" className="input" inputMode="decimal" value={mapping.discount_percent ?? '0'} onChange={(e) => setMapping({ ...mapping, discount_percent: e.target.value })} onBlur={() => remap({})} />
              </div>
            )}
            <div className="field">
              <label htmlFor="pl-gst" className="field__label">
                Prices in the file
              </label>
              <select id="pl-gst" className="input" value={mapping.gst ?? 'exclusive'} onChange={(e) => remap({ gst: e.target.value === 'inclusive' ? 'inclusive' : 'exclusive' })}>
                <option value="exclusive">Exclude GST</option>
                <option value="inclusive">Include GST</option>
              </select>
            </div>
          </Card>
          {preview.problems.map((p) => (
            <ErrorAlert key={p} message={p} />
          ))}
          {preview.problems.length === 0 && (
            <Card titleId="pl-preview" title="Preview">
              <p data-testid="pl-counts">
                {preview.counts.created} new, {preview.counts.updated} with a new price, {preview.counts.unchanged} unchanged, {preview.counts.refused} refused
              </p>
              <div className="price-book__table-wrap">
                <table className="price-book__table">
                  <thead>
                    <tr>
                      <th>Row</th>
                      <th>Code</th>
                      <th>Description</th>
                      <th>Unit</th>
                      <th>Cost excl. GST</th>
                    </tr>
                  </thead>
                  <tbody>
                    {preview.items.map((i) => (
                      <tr key={i.row}>
                        <td>{i.row}</td>
                        <td>{i.supplier_code}</td>
                        <td>{i.name}</td>
                        <td>{i.unit}</td>
                        <td>
                          {formatNzdPrice(i.cost)}
                          {i.current_cost !== null && ` (was ${formatNzdPrice(i.current_cost)})`}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </Card>
          )}
          {preview.refused.length > 0 && (
            <Card titleId="pl-refused" title="Rows that won't be imported">
              <ul className="price-book__list" aria-label="Refused rows">
                {preview.refused.map((r) => (
                  <li key={r.row} className="price-book__refused">
                    Row {r.row}: {r.reason}
                  </li>
                ))}
              </ul>
            </Card>
          )}
          {result ? (
            <p role="status">
              Imported: {result.counts.created} new, {result.counts.updated} updated, {result.counts.unchanged} unchanged, {result.counts.refused} refused.
            </p>
          ) : (
            <button type="button" className="button button--primary" onClick={() => void doImport()} disabled={busy || preview.problems.length > 0}>
              Import {preview.counts.created + preview.counts.updated} items
            </button>
          )}
        </>
      )}
      <button type="button" className="button button--secondary" onClick={onDone}>
        {result ? 'Done' : 'Cancel'}
      </button>
    </div>
  );
}
