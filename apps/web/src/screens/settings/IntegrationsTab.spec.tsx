// @vitest-environment jsdom
// Settings → Integrations when this server cannot connect to Xero: the card says so in a sole
// trader's words (no app keys, no administrator) and offers no Connect button that cannot work.
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ACCOUNTING_MESSAGES, type AccountingStatus } from '@tradie/contracts';
import { xeroConnectMachine } from '../../machines/xeroConnect.ts';
import { createHarness } from '../shared/testKit.tsx';
import { IntegrationsTab } from './IntegrationsTab.tsx';

const h = createHarness();
beforeEach(() => h.setUp());
afterEach(() => h.tearDown());

const unavailable: AccountingStatus = { connected: false, tenant_id: null, tenant_name: null, configured: false, needs_reauth: false };

describe('Settings → Integrations', () => {
  it("says plainly that connecting to Xero isn't available, with no Connect button", async () => {
    const actor = createActor(xeroConnectMachine.provide({ actors: { fetchStatus: fromPromise(async () => unavailable) } })).start();
    h.render(<IntegrationsTab actor={actor} />);
    await act(async () => {
      await waitFor(actor, (s) => s.matches('idle'));
    });
    await h.until(() => expect(h.text()).toContain(ACCOUNTING_MESSAGES.notConfigured));
    expect(h.text()).toMatch(/Connecting to Xero isn't available/);
    expect(h.text()).not.toMatch(/administrator|app keys|server/i);
    expect([...h.container.querySelectorAll('button')].map((b) => b.textContent)).not.toContain('Connect');
    actor.stop();
  });
});
