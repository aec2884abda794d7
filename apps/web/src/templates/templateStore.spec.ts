import { describe, expect, it } from 'vitest';
import { createTemplateStore, LOAD_TEMPLATE_KEY, TEMPLATES_KEY, type NewTemplate, type TemplateStorage } from './templateStore.ts';

function memoryStorage(initial: Record<string, string> = {}): TemplateStorage & { data: Map<string, string> } {
  const data = new Map(Object.entries(initial));
  return { data, getItem: (k) => data.get(k) ?? null, setItem: (k, v) => void data.set(k, v), removeItem: (k) => void data.delete(k) };
}

const bathroom: NewTemplate = {
  name: 'Bathroom refit',
  type: 'quote',
  lineItems: [{ description: 'Labour', qty: 8, unit_price: 95.5, tax_included: false, tax_rate: 0.15 }],
  profitMarginPercent: 25,
  includeGst: true,
  clientData: { name: 'Aroha Ngata', email: 'aroha@example.co.nz', phone: '021 555 0101' },
};

describe('the template store', () => {
  it("given a save, then the list under 'invoiceTemplates' holds exactly the template's fields, id the creation timestamp", () => {
    const storage = memoryStorage();
    const store = createTemplateStore(storage);
    const now = new Date('2026-05-05T21:30:00.000Z');

    const saved = store.save(bathroom, now);

    expect(saved.id).toBe(now.getTime());
    const stored: unknown = JSON.parse(storage.data.get(TEMPLATES_KEY) ?? 'null');
    expect(stored).toEqual([{ id: now.getTime(), ...bathroom, createdAt: '2026-05-05T21:30:00.000Z' }]);
    expect(Object.keys((stored as object[])[0] ?? {}).sort()).toEqual(
      ['clientData', 'createdAt', 'id', 'includeGst', 'lineItems', 'name', 'profitMarginPercent', 'type'].sort(),
    );
  });

  it('given two saves in the same millisecond, then their ids still differ', () => {
    const store = createTemplateStore(memoryStorage());
    const now = new Date('2026-05-05T21:30:00.000Z');
    const a = store.save(bathroom, now);
    const b = store.save({ ...bathroom, name: 'Second' }, now);
    expect(b.id).not.toBe(a.id);
    expect(store.list().map((t) => t.name)).toEqual(['Bathroom refit', 'Second']);
  });

  it('given a delete, then only that template goes and listeners hear of it', () => {
    const store = createTemplateStore(memoryStorage());
    const a = store.save(bathroom, new Date(1000));
    store.save({ ...bathroom, name: 'Deck' }, new Date(2000));
    let heard = 0;
    store.subscribe(() => heard++);

    const left = store.remove(a.id);

    expect(left.map((t) => t.name)).toEqual(['Deck']);
    expect(store.list().map((t) => t.name)).toEqual(['Deck']);
    expect(heard).toBe(1);
  });

  it("given a hand-over, then it is kept under 'loadTemplate' until cleared", () => {
    const storage = memoryStorage();
    const store = createTemplateStore(storage);
    const t = store.save(bathroom, new Date(5000));

    store.handOver(t);
    expect(storage.data.has(LOAD_TEMPLATE_KEY)).toBe(true);
    expect(store.peekHandOver()).toEqual(t);

    store.clearHandOver();
    expect(storage.data.has(LOAD_TEMPLATE_KEY)).toBe(false);
    expect(store.peekHandOver()).toBeNull();
  });

  it('given damaged storage, then the list is empty (or skips what is not a template) instead of failing', () => {
    expect(createTemplateStore(memoryStorage({ [TEMPLATES_KEY]: '{not json' })).list()).toEqual([]);
    expect(createTemplateStore(memoryStorage({ [TEMPLATES_KEY]: '{"a":1}' })).list()).toEqual([]);
    const mixed = JSON.stringify([null, 'x', { id: 7, name: 'Ok', lineItems: [{ description: 'A', qty: '2', unit_price: 'x' }] }]);
    const list = createTemplateStore(memoryStorage({ [TEMPLATES_KEY]: mixed })).list();
    expect(list).toEqual([
      {
        id: 7,
        name: 'Ok',
        type: 'quote',
        lineItems: [{ description: 'A', qty: 2, unit_price: 0, tax_included: false, tax_rate: 0.15 }],
        profitMarginPercent: 0,
        includeGst: true,
        clientData: null,
        createdAt: '',
      },
    ]);
    expect(createTemplateStore(memoryStorage({ [LOAD_TEMPLATE_KEY]: '][' })).peekHandOver()).toBeNull();
  });
});
