// The calls the clients tests make again and again, through the HTTP app.
import type { ClientRecord } from '@tradie/contracts';
import type { TestApp } from '../support/testApp.ts';

/**
 * `add`: POST /clients, which must answer 201, and the new client. `names`: the names GET
 * /clients lists, in order, for `query` (e.g. '?q=ngata&limit=2'). `app` gives the test app,
 * which is made in a beforeAll.
 */
export function clientCalls(app: () => TestApp) {
  return {
    add: async (token: string, body: unknown): Promise<ClientRecord> => {
      const r = await app().post('/clients', body, token);
      if (r.status !== 201) throw new Error(`POST /clients: ${r.status} ${r.text}`);
      return r.json;
    },
    names: async (token: string, query = ''): Promise<string[]> => ((await app().get(`/clients${query}`, token)).json as { name: string }[]).map((c) => c.name),
  };
}
