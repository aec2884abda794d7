// @vitest-environment jsdom
// /forgot-password against a mocked fetch: on a server with no mail server the reset link only goes
// to the outbox, and the screen says so instead of 'Check Your Email'.
import { AUTH_MESSAGES } from '@tradie/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHarness, json } from '../shared/testKit.tsx';
import { ForgotPasswordScreen } from './ForgotPasswordScreen.tsx';

vi.mock('@tanstack/react-router', async () => ({ Link: (await import('../shared/testLink.tsx')).TestLink, useNavigate: () => () => undefined }));

const h = createHarness();
beforeEach(() => h.setUp());
afterEach(() => h.tearDown());

async function ask() {
  h.render(<ForgotPasswordScreen />);
  h.type(h.byLabel('Email Address'), 'me@example.nz');
  h.click(h.button('Send Reset Link'));
  await h.until(() => expect(h.container.querySelector('h1')?.textContent).not.toBe('Forgot password'));
}

describe('Forgot password', () => {
  it('with no mail server: says the link was saved to the outbox, not that it is on its way', async () => {
    h.serve(() => json({ detail: AUTH_MESSAGES.resetLinkSaved('me@example.nz'), saved_to_outbox: true }));
    await ask();
    expect(h.container.querySelector('h1')?.textContent).toBe('Reset Link Not Sent');
    expect(h.text()).toContain(AUTH_MESSAGES.resetLinkSaved('me@example.nz'));
    expect(h.text()).not.toContain("you'll receive");
  });

  it('with a mail server: Check Your Email', async () => {
    h.serve(() => json({ detail: AUTH_MESSAGES.resetLinkComing('me@example.nz'), saved_to_outbox: false }));
    await ask();
    expect(h.container.querySelector('h1')?.textContent).toBe('Check Your Email');
    expect(h.text()).toContain(AUTH_MESSAGES.resetLinkComing('me@example.nz'));
  });
});
