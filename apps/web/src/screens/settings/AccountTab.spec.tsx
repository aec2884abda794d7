// @vitest-environment jsdom
// Settings → Account → Email address, against a mocked fetch: the answer says what happened to the
// confirmation email, as Send does — 'sent' only when a mail server took it; saved to the outbox is
// a warning, never a success.
import { ACCOUNT_MESSAGES } from '@tradie/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHarness, json } from '../shared/testKit.tsx';
import { ChangeEmailCard } from './AccountTab.tsx';

const h = createHarness();
beforeEach(() => h.setUp());
afterEach(() => h.tearDown());

async function changeTo(address: string) {
  h.render(<ChangeEmailCard current="me@example.nz" />);
  h.type(h.byLabel('New Email'), address);
  h.type(h.byLabel('Password'), 'correct horse battery');
  h.click(h.button('Change Email'));
  await h.until(() => expect(h.container.querySelector('.callout')).not.toBeNull());
  return h.container.querySelector('.callout')!;
}

describe('Change Email', () => {
  it('only saved to the outbox: a warning in the API’s words, never that a link was sent', async () => {
    const detail = ACCOUNT_MESSAGES.emailChangeSaved('new@example.nz');
    h.serve(() => json({ detail, outcome: 'saved_not_delivered' }));
    const callout = await changeTo('new@example.nz');
    expect(h.calls).toEqual([{ method: 'POST', path: '/account/change-email', body: { new_email: 'new@example.nz', password: 'correct horse battery' } }]);
    expect(callout.textContent).toBe(detail);
    expect(callout.className).toContain('callout--warning');
    expect(h.text()).not.toContain("We've sent");
  });

  it('delivered: the success callout says the link was sent', async () => {
    h.serve(() => json({ detail: ACCOUNT_MESSAGES.emailChangeSent('new@example.nz'), outcome: 'delivered' }));
    const callout = await changeTo('new@example.nz');
    expect(callout.textContent).toBe(ACCOUNT_MESSAGES.emailChangeSent('new@example.nz'));
    expect(callout.className).toContain('callout--success');
  });
});
