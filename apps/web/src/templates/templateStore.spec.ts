import { QueryClient } from '@tanstack/react-query';
import { TEMPLATE_LIMITS as SERVER_LIMITS, type TemplateInput, type TemplateRecord } from '@tradie/contracts';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/client.ts';
import { removeTemplate, saveTemplate, templateKeys, templatesQuery } from './queries.ts';
import {
  clearTemplateCache, fetchTemplates, LEGACY_TEMPLATES_KEY, LOAD_TEMPLATE_KEY, TEMPLATE_LIMITS, templateHandOver, templateInputOf, templatesCacheKey,
  type NewTemplate, type Template, type TemplateApi,
} from './templateStore.ts';

/** localStorage as a Map, with the key/length walk clearTemplateCache may use. */
function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (k: string) => data.get(k) ?? null,
    setItem: (k: string, v: string) => void data.set(k, v),
    removeItem: (k: string) => void data.delete(k),
    get length() {
      return data.size;
    },
    key: (i: number) => [...data.keys()][i] ?? null,
  };
}

/** The /templates API of one account, in memory; `down` makes every call fail as if offline. */
function fakeServer(initial: TemplateRecord[] = []) {
  const items = [...initial];
  let seq = 0;
  const server = {
    items,
    down: false,
    posts: 0,
    /** Fail (offline) from the n-th POST on. */
    failPostFrom: Infinity,
    api: {
      get: async <T>(path: string): Promise<T> => {
        if (server.down) throw new ApiError(0, 'Network Error');
        expect(path).toBe('/templates');
        return { items: [...items] } as T;
      },
      post: async <T>(path: string, body?: unknown): Promise<T> => {
        server.posts += 1;
        if (server.down || server.posts >= server.failPostFrom) throw new ApiError(0, 'Network Error');
        expect(path).toBe('/templates');
        const b = body as Required<TemplateInput>;
        if (b.name === 'Refused') throw new ApiError(422, 'Name is refused');
        const record: TemplateRecord = {
          id: `t${++seq}`, name: b.name, type: b.type, line_items: b.line_items.map((l) => ({ ...l, cost: l.cost ?? null, category: l.category ?? 'other', markup: l.markup ?? null })), profit_margin_percent: b.profit_margin_percent, include_gst: b.include_gst,
          client: b.client, notes: b.notes, version: 1, created_at: '2026-05-05T21:30:00.000Z', updated_at: '2026-05-05T21:30:00.000Z',
        };
        items.push(record);
        return record as T;
      },
      del: async <T>(path: string): Promise<T> => {
        if (server.down) throw new ApiError(0, 'Network Error');
        const i = items.findIndex((t) => `/templates/${t.id}` === path);
        if (i < 0) throw new ApiError(404, 'Template not found');
        items.splice(i, 1);
        return undefined as T;
      },
    } satisfies TemplateApi,
  };
  return server;
}

const bathroom: NewTemplate = {
  name: 'Bathroom refit',
  type: 'quote',
  lineItems: [{ description: 'Labour', qty: 8, unit_price: 95.5, tax_included: false, tax_rate: 0.15 }],
  profitMarginPercent: 25,
  includeGst: true,
  clientData: { name: 'Aroha Ngata', email: 'aroha@example.co.nz', phone: '021 555 0101' },
};

/** A template as a browser kept it before the server did: numeric id, no version. */
const oldCopy = (name: string, id = 1_700_000_000_000) => ({ id, ...bathroom, name, createdAt: '2026-01-01T00:00:00.000Z' });

describe('the template store', () => {
  it("reads the server's list and keeps a copy for this user only, under 'invoiceTemplates:{userId}'", async () => {
    const server = fakeServer();
    const storage = memoryStorage();
    await server.api.post('/templates', templateInputOf(bathroom));

    const list = await fetchTemplates(server.api, storage, 'user-a');

    expect(list).toEqual([
      {
        id: 't1', name: 'Bathroom refit', type: 'quote', lineItems: bathroom.lineItems.map((l) => ({ ...l, cost: null, category: 'other', markup: null })), profitMarginPercent: 25, includeGst: true, clientData: bathroom.clientData,
        notes: '', createdAt: '2026-05-05T21:30:00.000Z', version: 1,
      },
    ]);
    expect(JSON.parse(storage.data.get(templatesCacheKey('user-a'))!)).toEqual(list);
    expect(templatesCacheKey('user-a')).toBe('invoiceTemplates:user-a');
    expect([...storage.data.keys()]).toEqual(['invoiceTemplates:user-a']);
  });

  it("offline, shows the user's copy; with no copy, the failure", async () => {
    const server = fakeServer();
    const storage = memoryStorage();
    await server.api.post('/templates', templateInputOf(bathroom));
    await fetchTemplates(server.api, storage, 'user-a');
    server.down = true;

    expect((await fetchTemplates(server.api, storage, 'user-a')).map((t) => t.name)).toEqual(['Bathroom refit']);
    // Another user on this browser gets nothing of user-a's.
    await expect(fetchTemplates(server.api, storage, 'user-b')).rejects.toMatchObject({ status: 0 });
  });

  it('a refusal (not signed in) is never covered by the offline copy', async () => {
    const storage = memoryStorage({ [templatesCacheKey('user-a')]: JSON.stringify([oldCopy('Mine')]) });
    const api: TemplateApi = { ...fakeServer().api, get: () => Promise.reject(new ApiError(401, 'Not signed in')) };
    await expect(fetchTemplates(api, storage, 'user-a')).rejects.toMatchObject({ status: 401 });
  });

  describe("the old browser copy under 'invoiceTemplates'", () => {
    it('is uploaded once when the server has none, then removed', async () => {
      const server = fakeServer();
      const storage = memoryStorage({ [LEGACY_TEMPLATES_KEY]: JSON.stringify([oldCopy('Bathroom refit', 1), oldCopy('Deck', 2)]) });

      const list = await fetchTemplates(server.api, storage, 'user-a');

      expect(list.map((t) => [t.id, t.name])).toEqual([['t1', 'Bathroom refit'], ['t2', 'Deck']]);
      expect(server.items.map((t) => t.name)).toEqual(['Bathroom refit', 'Deck']);
      expect(storage.data.has(LEGACY_TEMPLATES_KEY)).toBe(false);
      // The next read uploads nothing more.
      await fetchTemplates(server.api, storage, 'user-a');
      expect(server.posts).toBe(2);
    });

    it('skips what the server already holds the same, and keeps the rest for next time when the server drops out', async () => {
      const server = fakeServer();
      await server.api.post('/templates', templateInputOf({ ...bathroom, name: 'Bathroom refit' }));
      server.failPostFrom = 3; // the second upload (third POST) fails
      const storage = memoryStorage({ [LEGACY_TEMPLATES_KEY]: JSON.stringify([oldCopy('Bathroom refit'), oldCopy('Deck'), oldCopy('Fence')]) });

      const first = await fetchTemplates(server.api, storage, 'user-a');
      expect(first.map((t) => t.name)).toEqual(['Bathroom refit', 'Deck']);
      expect(storage.data.has(LEGACY_TEMPLATES_KEY)).toBe(true);

      server.failPostFrom = Infinity;
      const second = await fetchTemplates(server.api, storage, 'user-a');
      expect(second.map((t) => t.name)).toEqual(['Bathroom refit', 'Deck', 'Fence']);
      expect(server.items).toHaveLength(3); // no duplicates
      expect(storage.data.has(LEGACY_TEMPLATES_KEY)).toBe(false);
    });

    it('one the server refuses is skipped rather than blocking the rest; one past the bounds is trimmed to fit', async () => {
      const server = fakeServer();
      const long = { ...oldCopy('x'.repeat(300)), lineItems: Array.from({ length: 250 }, () => bathroom.lineItems[0]) };
      const storage = memoryStorage({ [LEGACY_TEMPLATES_KEY]: JSON.stringify([oldCopy('Refused'), long, '{broken', null]) });

      const list = await fetchTemplates(server.api, storage, 'user-a');

      expect(list).toHaveLength(1);
      expect(list[0]!.name).toHaveLength(TEMPLATE_LIMITS.name);
      expect(list[0]!.lineItems).toHaveLength(TEMPLATE_LIMITS.lines);
      expect(storage.data.has(LEGACY_TEMPLATES_KEY)).toBe(false);
    });
  });

  it('signing out removes that user’s copy and any hand-over, and nobody else’s', () => {
    const storage = memoryStorage({
      [templatesCacheKey('user-a')]: '[]',
      [templatesCacheKey('user-b')]: '[]',
      [LOAD_TEMPLATE_KEY]: JSON.stringify(oldCopy('Deck')),
      access_token: 'x',
    });
    clearTemplateCache(storage, 'user-a');
    expect([...storage.data.keys()].sort()).toEqual(['access_token', 'invoiceTemplates:user-b']);
    // Not knowing who: every user's copy goes.
    clearTemplateCache(storage, null);
    expect([...storage.data.keys()]).toEqual(['access_token']);
  });

  it("hands a template to the calculator under 'loadTemplate' until cleared; an old numeric id reads as text", () => {
    const storage = memoryStorage();
    const handOver = templateHandOver(storage);
    handOver.handOver({ ...oldCopy('Deck'), id: 'abc', notes: '', version: 1 });
    expect(handOver.peekHandOver()).toMatchObject({ id: 'abc', name: 'Deck' });
    storage.setItem(LOAD_TEMPLATE_KEY, JSON.stringify({ id: 1, name: '50 lines', lineItems: [{ description: 'A', qty: '2', unit_price: 'x' }] }));
    expect(handOver.peekHandOver()).toEqual({
      id: '1', name: '50 lines', type: 'quote', lineItems: [{ description: 'A', qty: 2, unit_price: 0, tax_included: false, tax_rate: 0.15, cost: null, category: 'other' }],
      profitMarginPercent: 0, includeGst: true, clientData: null, notes: '', createdAt: '', version: 0,
    });
    handOver.clearHandOver();
    expect(handOver.peekHandOver()).toBeNull();
    storage.setItem(LOAD_TEMPLATE_KEY, '][');
    expect(handOver.peekHandOver()).toBeNull();
  });

  it("knows the server's bounds", () => {
    expect(TEMPLATE_LIMITS).toEqual(SERVER_LIMITS);
  });
});

describe('the template queries', () => {
  it('a save and a delete reach the server first, then the list and the offline copy', async () => {
    const server = fakeServer();
    const storage = memoryStorage();
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    await queryClient.fetchQuery(templatesQuery(server.api, () => storage, 'user-a'));

    const saved = await saveTemplate(server.api, queryClient, storage, 'user-a', bathroom);
    const names = () => (queryClient.getQueryData<Template[]>(templateKeys.list('user-a')) ?? []).map((t) => t.name);
    expect(names()).toEqual(['Bathroom refit']);
    expect(server.items.map((t) => t.name)).toEqual(['Bathroom refit']);
    expect(JSON.parse(storage.data.get(templatesCacheKey('user-a'))!)).toHaveLength(1);

    await removeTemplate(server.api, queryClient, storage, 'user-a', saved.id);
    expect(names()).toEqual([]);
    expect(server.items).toEqual([]);
    // Gone already (deleted in another browser) is the same.
    await expect(removeTemplate(server.api, queryClient, storage, 'user-a', saved.id)).resolves.toBeUndefined();

    // A save that does not reach the server changes nothing here, and says so.
    server.down = true;
    await expect(saveTemplate(server.api, queryClient, storage, 'user-a', bathroom)).rejects.toMatchObject({ status: 0 });
    expect(names()).toEqual([]);
  });

  it('each user has their own list in the cache', () => {
    expect(templatesQuery(fakeServer().api, () => memoryStorage(), 'user-a').queryKey).toEqual(['templates', 'user-a']);
    expect(templatesQuery(fakeServer().api, () => memoryStorage(), 'user-b').queryKey).toEqual(['templates', 'user-b']);
  });
});
