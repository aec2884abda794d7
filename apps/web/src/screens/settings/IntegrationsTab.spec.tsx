// @vitest-environment jsdom
// Settings → Integrations when this server cannot connect to Xero: the card says so in a sole
// trader's words (no app keys, no administrator) and offers no Connect button that cannot work.
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ACCOUNTING_MESSAGES, type AccountingStatus } from '@tradie/contracts';
import { xeroConnectMachine } from '../../machines/xeroConnect.ts';
import { createHarness, json } from '../shared/testKit.tsx';
import { IntegrationsTab } from './IntegrationsTab.tsx';

const h = createHarness();
beforeEach(() => h.setUp());
afterEach(() => h.tearDown());

const unavailable: AccountingStatus = { connected: false, tenant_id: null, tenant_name: null, configured: false, needs_reauth: false };

describe('Settings → Integrations', () => {
  it("says plainly that connecting to Xero isn't available, with no Connect button", async () => {
    const actor = createActor(xeroConnectMachine.provide({ actors: { fetchStatus: fromPromise(async () => unavailable) } })).start();
    h.render(<IntegrationsTab actor={actor} show={() => undefined} />);
    await act(async () => {
      await waitFor(actor, (s) => s.matches('idle'));
    });
    await h.until(() => expect(h.text()).toContain(ACCOUNTING_MESSAGES.notConfigured));
    expect(h.text()).toMatch(/Connecting to Xero isn't available/);
    expect(h.text()).not.toMatch(/administrator|app keys|server/i);
    expect([...h.container.querySelectorAll('button')].map((b) => b.textContent)).not.toContain('Connect');
    actor.stop();
  });

  it('connected: each cost category shows where its bills go in Xero, and a choice saves at once', async () => {
    const accounts = [{ code: '300', name: 'Purchases' }, { code: '429', name: 'General Expenses' }, { code: '449', name: 'Motor Vehicle Expenses' }];
    const listed = { categories: [{ category: 'materials', code: '300', chosen: false, standard_code: '300' }, { category: 'fuel', code: '449', chosen: false, standard_code: '449' }], accounts };
    h.serve((method) =>
      method === 'PUT' ? json({ ...listed, categories: [listed.categories[0], { category: 'fuel', code: '429', chosen: true, standard_code: '449' }] }) : json(listed),
    );
    const connected: AccountingStatus = { connected: true, tenant_id: 't1', tenant_name: 'Ngata Plumbing Ltd', configured: true, needs_reauth: false };
    const actor = createActor(xeroConnectMachine.provide({ actors: { fetchStatus: fromPromise(async () => connected) } })).start();
    const said: [string, boolean][] = [];
    h.render(<IntegrationsTab actor={actor} show={(text, failure) => said.push([text, failure])} />);
    await h.until(() => expect(h.text()).toContain('Where your costs go in Xero'));
    const fuel = h.container.querySelector('#xero-bill-account-fuel') as HTMLSelectElement;
    expect(fuel.value).toBe('');
    expect(fuel.options[0]!.textContent).toBe('Standard: 449 Motor Vehicle Expenses');
    h.select(fuel, '429');
    await h.until(() => expect(said).toEqual([['Fuel costs now go to 429 General Expenses in Xero', false]]));
    expect(h.calls.filter((c) => c.method === 'PUT')).toEqual([{ method: 'PUT', path: '/integrations/xero/bill-accounts', body: { category: 'fuel', code: '429' } }]);
    await h.until(() => expect((h.container.querySelector('#xero-bill-account-fuel') as HTMLSelectElement).value).toBe('429'));
    actor.stop();
  });
});
