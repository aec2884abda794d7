// @vitest-environment jsdom
// The client's quote and invoice pages against a mocked fetch: what they show in each state, what
// they send, and that a tap sends once.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act } from 'react';
import { CLIENT_LINK_MESSAGES, type PublicInvoicePage, type PublicQuotePage } from '@tradie/contracts';
import { createApiClient, type TokenStorage } from '../../api/client.ts';
import { createHarness, json } from '../shared/testKit.tsx';
import { QuotePage } from './ClientQuotePage.tsx';
import { InvoicePage, PAYMENT_CONFIRMING } from './ClientInvoicePage.tsx';

// The finger signature: a stand-in for the canvas library (jsdom has no canvas).
const pad = vi.hoisted(() => ({ drawn: false }));
vi.mock('signature_pad', () => ({
  default: class {
    addEventListener() {}
    removeEventListener() {}
    on() {}
    off() {}
    clear() {
      pad.drawn = false;
    }
    isEmpty() {
      return !pad.drawn;
    }
    toData() {
      return [];
    }
    fromData() {}
    toDataURL() {
      return 'data:image/png;base64,iVBORw0KGgo=';
    }
  },
}));

const TOKEN = 'tok_abcdefghijklmnopqrstuvwxyz012345';
const SHA = 'a'.repeat(64);

const business = { name: 'Ngata Plumbing', gst_number: '123-456-789', phone: '021 555 0101', email: 'office@ngata.example.nz', address: '1 Queen Street, Auckland 1010', logo_url: '' };
const document = (type: 'quote' | 'invoice', over: Partial<PublicQuotePage['document']> = {}): PublicQuotePage['document'] => ({
  type,
  title: type === 'quote' ? 'Quote' : 'Tax invoice',
  reference: type === 'quote' ? 'QU-0007' : 'INV-0007',
  issue_date: '2026-11-20',
  due_date: '2026-12-20',
  valid_until: type === 'quote' ? '2026-12-20' : null,
  client_name: 'Jo Bloggs',
  job_title: '',
  payment_terms_text: '30 days — due 20/12/2026',
  site_address: '',
  line_items: [{ description: 'Replace hot water cylinder', qty: 1, unit_price: 2000, tax_included: false, tax_rate: 0.15, amount: 2000, gst: 300, amount_excl_gst: 2000, formatted: { unit_price: '$2,000.00', amount: '$2,000.00' } }],
  gst_registered: true,
  subtotal: 2000,
  gst: 300,
  total: 2300,
  paid: 0,
  balance: 2300,
  formatted: { subtotal: '$2,000.00', gst: '$300.00', total: '$2,300.00', paid: '$0.00', balance: '$2,300.00' },
  notes: 'Parts on order.',
  pdf_url: `/public/quotes/${TOKEN}/pdf`,
  ...over,
});

const quote = (over: Partial<PublicQuotePage> = {}): PublicQuotePage => ({
  business,
  document: document('quote'),
  terms: 'A 30% deposit is due on acceptance.',
  shown_sha256: SHA,
  version: 3,
  state: 'open',
  acceptance: null,
  decline: null,
  variations: [],
  summary: null,
  deposit_invoice: null,
  deposit_pending: false,
  ...over,
});

const invoice = (over: Partial<PublicInvoicePage> = {}): PublicInvoicePage => ({
  business,
  document: { ...document('invoice'), pdf_url: `/public/invoices/${TOKEN}/pdf` },
  payments: [],
  credit_notes: [],
  money: { credited: null, received: '$0.00', refunded: null },
  state: 'open',
  pay: null,
  bank: { bank_name: 'ASB', account_name: 'Ngata Plumbing Ltd', account_number: '12-3456-7890123-00' },
  ...over,
});

interface Call {
  method: string;
  path: string;
  body: unknown;
  auth: string | null;
}

/** A fetch answered by `answer` (method and path below /api/v1), every call recorded. */
function mockApi(answer: (method: string, path: string, body: unknown) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input).replace(/^\/api\/v1/, '');
    const method = init?.method ?? 'GET';
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    const headers = (init?.headers ?? {}) as Record<string, string>;
    calls.push({ method, path, body, auth: headers.Authorization ?? null });
    return answer(method, path, body);
  }) as typeof globalThis.fetch;
  // A tradie signed in on the same phone: their token must not go to the public pages.
  const storage: TokenStorage = { getItem: (k) => (k === 'access_token' ? 'tradie-token' : null), setItem: () => undefined, removeItem: () => undefined };
  return { api: createApiClient({ fetch: () => fetch, storage: () => storage }), calls };
}

const h = createHarness();
const { text, until, button, byLabel, type, click } = h;
let beacons: string[];

beforeEach(() => {
  h.setUp();
  pad.drawn = false;
  beacons = [];
  Object.defineProperty(window.navigator, 'sendBeacon', { configurable: true, value: (url: string) => (beacons.push(url), true) });
  HTMLCanvasElement.prototype.getContext = (() => ({ scale: () => undefined })) as unknown as HTMLCanvasElement['getContext'];
});

afterEach(() => {
  h.tearDown();
  vi.useRealTimers();
});

const render = (ui: React.ReactNode) => void h.render(ui);

describe('the quote page', () => {
  it('shows the business, the lines and the API’s figures, the terms with a tick box, and sends one view beacon', async () => {
    const { api, calls } = mockApi(() => json(quote()));
    render(<QuotePage api={api} token={TOKEN} />);
    await until(() => expect(text()).toContain('Quote QU-0007'));
    expect(text()).toContain('Ngata Plumbing');
    expect(text()).toContain('021 555 0101');
    expect(text()).toContain('Replace hot water cylinder');
    expect(h.container.querySelector('[data-testid="client-subtotal"]')?.textContent).toBe('$2,000.00');
    expect(h.container.querySelector('[data-testid="client-gst"]')?.textContent).toBe('$300.00');
    expect(h.container.querySelector('[data-testid="client-total"]')?.textContent).toBe('$2,300.00');
    expect(text()).toContain('Parts on order.');
    expect(text()).toContain('A 30% deposit is due on acceptance.');
    expect(byLabel('I have read and accept the terms').type).toBe('checkbox');
    expect(byLabel('Your full name')).toBeTruthy();
    expect(h.container.querySelector('a[download]')?.getAttribute('href')).toBe(`/api/v1/public/quotes/${TOKEN}/pdf`);
    // The signature comes last, just before Accept.
    const order = [...h.container.querySelectorAll('[data-testid="signature-pad"], button[type="submit"]')].map((e) => e.tagName);
    expect(order).toEqual(['CANVAS', 'BUTTON']);
    await until(() => expect(beacons).toEqual([`/api/v1/public/links/${TOKEN}/viewed`]));
    // Without the tradie's token, and the GET counted no view.
    expect(calls.every((c) => c.auth === null)).toBe(true);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([`GET /public/quotes/${TOKEN}`]);
  });

  it('with no terms there is no tick box', async () => {
    const { api } = mockApi(() => json(quote({ terms: '' })));
    render(<QuotePage api={api} token={TOKEN} />);
    await until(() => expect(text()).toContain('Accept this quote'));
    expect(h.container.querySelector('input[type="checkbox"]')).toBeNull();
  });

  it('asks for a name and the tick, then accepts once however often it is tapped, with the version and hash shown', async () => {
    let release: (r: Response) => void = () => undefined;
    const { api, calls } = mockApi((method) => {
      if (method === 'GET') return json(quote());
      return new Promise<Response>((r) => {
        release = r;
      });
    });
    render(<QuotePage api={api} token={TOKEN} />);
    await until(() => expect(text()).toContain('Accept this quote'));

    click(button('Accept quote'));
    expect(h.container.querySelector('[role="alert"]')?.textContent).toBe(CLIENT_LINK_MESSAGES.nameRequired);
    type(byLabel('Your full name'), '  Jo Bloggs ');
    click(button('Accept quote'));
    expect(h.container.querySelector('[role="alert"]')?.textContent).toBe(CLIENT_LINK_MESSAGES.termsRequired);
    click(byLabel('I have read and accept the terms'));
    pad.drawn = true;

    click(button('Accept quote'));
    click(button(/Accept/));
    await until(() => expect(button('Accepting...').disabled).toBe(true));
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts).toHaveLength(1);
    expect(posts[0]).toMatchObject({
      path: `/public/quotes/${TOKEN}/accept`,
      body: { signer_name: 'Jo Bloggs', terms_accepted: true, signature_png: 'data:image/png;base64,iVBORw0KGgo=', shown_sha256: SHA, version: 3 },
      auth: null,
    });

    await act(async () => release(json(quote({ state: 'accepted', acceptance: { signer_name: 'Jo Bloggs', accepted_at: '2026-11-25T21:30:00.000Z', signed: true } }))));
    // 21:30 UTC on the 25th is the 26th in New Zealand.
    await until(() => expect(h.container.querySelector('[data-testid="quote-state"]')?.textContent).toContain('Accepted by Jo Bloggs on 26 November 2026'));
    expect(text()).not.toContain('Accept this quote');
  });

  it('a deposit asked for is shown before accepting; accepting goes straight on to Pay now when cards are taken', async () => {
    const depositInvoice = { reference: 'INV-0012', formatted: { total: '$690.00', balance: '$690.00' }, due_date: '2026-11-26', paid: false, path: '/i/deposit-token', pay_by_card: true, bank: null };
    const { api } = mockApi((method) =>
      method === 'GET'
        ? json(quote({ document: { ...document('quote'), deposit: 'A 30 % deposit ($690.00) is due on acceptance.' } }))
        : json(quote({ state: 'accepted', acceptance: { signer_name: 'Jo Bloggs', accepted_at: '2026-11-25T21:30:00.000Z', signed: false }, deposit_invoice: depositInvoice })),
    );
    const went: string[] = [];
    render(<QuotePage api={api} token={TOKEN} goTo={(path) => went.push(path)} />);
    await until(() => expect(h.container.querySelector('[data-testid="client-deposit"]')?.textContent).toBe('A 30 % deposit ($690.00) is due on acceptance.'));
    type(byLabel('Your full name'), 'Jo Bloggs');
    click(byLabel('I have read and accept the terms'));
    click(button('Accept quote'));
    await until(() => expect(went).toEqual(['/i/deposit-token']));
    expect(h.container.querySelector('[data-testid="client-deposit-due"] a')?.getAttribute('href')).toBe('/i/deposit-token');
    expect(text()).toContain('Pay the deposit $690.00');
  });

  it('an accepted quote whose deposit is paid by bank transfer shows the account and the reference; paid or still to come, it says so', async () => {
    const bank = { bank_name: 'ASB', account_name: 'Ngata Plumbing Ltd', account_number: '12-3456-7890123-00' };
    const accepted = { state: 'accepted' as const, acceptance: { signer_name: 'Jo Bloggs', accepted_at: '2026-11-25T21:30:00.000Z', signed: false } };
    const deposit = { reference: 'INV-0012', formatted: { total: '$690.00', balance: '$690.00' }, due_date: '2026-11-26', paid: false, path: '/i/deposit-token', pay_by_card: false, bank };
    let page = quote({ ...accepted, deposit_invoice: deposit });
    const { api } = mockApi(() => json(page));
    render(<QuotePage api={api} token={TOKEN} />);
    await until(() => expect(text()).toContain('Your deposit: $690.00, due now'));
    const due = h.container.querySelector('[data-testid="client-deposit-due"]')!.textContent!;
    expect(due).toContain('Please pay $690.00 by bank transfer');
    expect(due).toContain('12-3456-7890123-00');
    expect(due).toContain('INV-0012');
    expect(due).toContain('View the deposit invoice INV-0012');
    h.tearDown();
    h.setUp();
    page = quote({ ...accepted, deposit_invoice: { ...deposit, paid: true, formatted: { total: '$690.00', balance: '$0.00' } } });
    render(<QuotePage api={mockApi(() => json(page)).api} token={TOKEN} />);
    await until(() => expect(h.container.querySelector('[data-testid="client-deposit-paid"]')?.textContent).toBe('Deposit paid (INV-0012, $690.00). Thank you!'));
    h.tearDown();
    h.setUp();
    page = quote({ ...accepted, deposit_pending: true });
    render(<QuotePage api={mockApi(() => json(page)).api} token={TOKEN} />);
    await until(() => expect(h.container.querySelector('[data-testid="client-deposit-pending"]')?.textContent).toBe('Ngata Plumbing will send you the deposit invoice.'));
  });

  it('a quote that changed meanwhile (409): says so and loads the quote again', async () => {
    const { api, calls } = mockApi((method) => (method === 'GET' ? json(quote()) : json({ detail: CLIENT_LINK_MESSAGES.quoteChanged }, 409)));
    render(<QuotePage api={api} token={TOKEN} />);
    await until(() => expect(text()).toContain('Accept this quote'));
    type(byLabel('Your full name'), 'Jo Bloggs');
    click(byLabel('I have read and accept the terms'));
    click(button('Accept quote'));
    await until(() => expect(h.container.querySelector('[role="alert"]')?.textContent).toBe(CLIENT_LINK_MESSAGES.quoteChanged));
    await until(() => expect(calls.filter((c) => c.method === 'GET')).toHaveLength(2));
  });

  it.each([
    [410, CLIENT_LINK_MESSAGES.withdrawn],
    [410, CLIENT_LINK_MESSAGES.expired],
    [410, CLIENT_LINK_MESSAGES.accountClosed],
    [404, CLIENT_LINK_MESSAGES.notFound],
  ])('a link answered %i shows its detail as the whole page', async (status, detail) => {
    const { api, calls } = mockApi(() => json({ detail }, status));
    render(<QuotePage api={api} token={TOKEN} />);
    await until(() => expect(text()).toContain(detail));
    expect(h.container.querySelector('[role="alert"] h1')).not.toBeNull();
    expect(text()).not.toContain('Retry');
    expect(beacons).toEqual([]);
    expect(calls).toHaveLength(1);
  });

  it.each(['accept', 'decline', 'changes'] as const)('the business closed its account while the page was open: %s shows why, as the whole page', async (answer) => {
    let closed = false;
    const { api, calls } = mockApi((method) => {
      if (method === 'GET' && !closed) return json(quote());
      closed = true;
      return json({ detail: CLIENT_LINK_MESSAGES.accountClosed }, 410);
    });
    render(<QuotePage api={api} token={TOKEN} />);
    await until(() => expect(text()).toContain('Accept this quote'));
    if (answer === 'accept') {
      type(byLabel('Your full name'), 'Jo Bloggs');
      click(byLabel('I have read and accept the terms'));
      click(button('Accept quote'));
    } else if (answer === 'decline') {
      click(button('Decline'));
      click(button('Decline quote'));
    } else {
      click(button('Ask for changes'));
      type(h.container.querySelector<HTMLTextAreaElement>('#client-changes-note')!, 'Chrome taps please');
      click(button('Send request'));
    }
    await until(() => expect(h.container.querySelector('[role="alert"] h1')?.textContent).toBe('This link no longer works'));
    expect(h.container.querySelector('[role="alert"]')?.textContent).toContain(CLIENT_LINK_MESSAGES.accountClosed);
    // Nothing of the quote, the business or the client is left on the page, and no form.
    expect(text()).not.toContain('Ngata Plumbing');
    expect(text()).not.toContain('Jo Bloggs');
    expect(h.container.querySelector('form')).toBeNull();
    expect(calls.map((c) => c.method)).toEqual(['GET', 'POST', 'GET']);
  });

  it('declines with reasons and a note', async () => {
    const { api, calls } = mockApi((method) =>
      method === 'GET' ? json(quote()) : json(quote({ state: 'declined', decline: { reasons: ['price'], note: 'Too dear', declined_at: '2026-11-25T01:00:00.000Z' } })),
    );
    render(<QuotePage api={api} token={TOKEN} />);
    await until(() => expect(text()).toContain('Not quite right?'));
    click(button('Decline'));
    click(byLabel('Price is too high'));
    click(byLabel('Going with someone else'));
    type(h.container.querySelector<HTMLTextAreaElement>('#client-decline-note')!, ' Too dear ');
    click(button('Decline quote'));
    await until(() => expect(h.container.querySelector('[data-testid="quote-state"]')?.textContent).toContain(CLIENT_LINK_MESSAGES.alreadyDeclined));
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({ path: `/public/quotes/${TOKEN}/decline`, body: { reasons: ['price', 'went_elsewhere'], note: 'Too dear' } });
    expect(text()).not.toContain('Accept this quote');
  });

  it('asks for changes only with a note', async () => {
    const { api, calls } = mockApi((method) => (method === 'GET' ? json(quote()) : json(quote({ state: 'changes_requested' }))));
    render(<QuotePage api={api} token={TOKEN} />);
    await until(() => expect(text()).toContain('Not quite right?'));
    click(button('Ask for changes'));
    click(button('Send request'));
    expect(text()).toContain(CLIENT_LINK_MESSAGES.changesRequired);
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    type(h.container.querySelector<HTMLTextAreaElement>('#client-changes-note')!, 'Can you do it in January?');
    click(button('Send request'));
    await until(() => expect(h.container.querySelector('[data-testid="quote-state"]')?.textContent).toContain('You asked for changes'));
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({ path: `/public/quotes/${TOKEN}/changes`, body: { note: 'Can you do it in January?' } });
    // Still open: it can be accepted as it is.
    expect(text()).toContain('Accept this quote');
  });

  it('an expired quote says so and cannot be answered', async () => {
    const { api } = mockApi(() => json(quote({ state: 'expired' })));
    render(<QuotePage api={api} token={TOKEN} />);
    await until(() => expect(h.container.querySelector('[data-testid="quote-state"]')?.textContent).toBe('This quote expired on 20 December 2026. Please ask Ngata Plumbing for a new one.'));
    expect(h.container.querySelector('form')).toBeNull();
    expect(text()).not.toContain('Decline');
  });

  it('an accepted quote shows who accepted it and no forms', async () => {
    const { api } = mockApi(() => json(quote({ state: 'accepted', acceptance: { signer_name: 'Jo Bloggs', accepted_at: '2026-11-20T02:00:00.000Z', signed: false } })));
    render(<QuotePage api={api} token={TOKEN} />);
    await until(() => expect(text()).toContain('Accepted by Jo Bloggs on 20 November 2026'));
    expect(h.container.querySelector('form')).toBeNull();
  });
});

describe("the variations of an accepted quote", () => {
  const variation = (over: Partial<PublicQuotePage['variations'][number]> = {}): PublicQuotePage['variations'][number] => ({
    id: 'v1', name: 'Variation 1', note: 'The old downpipe is cracked', status: 'awaiting_approval', status_label: 'Awaiting approval',
    line_items: [{ description: 'Extra downpipe', qty: 1, unit_price: 104.35, tax_included: false, tax_rate: 0.15, amount: 104.35, gst: 15.65, amount_excl_gst: 104.35, formatted: { unit_price: '$104.35', amount: '$104.35' } }],
    subtotal: 104.35, gst: 15.65, total: 120, formatted: { subtotal: '$104.35', gst: '$15.65', total: '$120.00' }, shown_sha256: 'b'.repeat(64), acceptance: null, declined_at: null,
    ...over,
  });
  const accepted = (v = variation(), summary = 'Accepted $2,300.00 · Variation 1 $120.00 awaiting approval') =>
    quote({ state: 'accepted', acceptance: { signer_name: 'Jo Bloggs', accepted_at: '2026-11-21T01:00:00Z', signed: true }, variations: [v], summary });

  it('shows the quote as accepted and the variation apart, then approves it once with a name and the hash shown', async () => {
    const { api, calls } = mockApi((method) =>
      json(method === 'GET' ? accepted() : accepted(variation({ status: 'approved', status_label: 'Approved', acceptance: { signer_name: 'Jo Bloggs', accepted_at: '2026-11-30T01:00:00Z', signed: false } }), 'Accepted $2,300.00 · Variation 1 $120.00 approved')),
    );
    render(<QuotePage api={api} token={TOKEN} />);
    await until(() => expect(text()).toContain('Variation 1 · $120.00'));
    expect(h.container.querySelector('[data-testid="quote-state"]')?.textContent).toContain('Accepted by Jo Bloggs');
    expect(h.container.querySelector('[data-testid="client-total"]')?.textContent).toBe('$2,300.00');
    expect(h.container.querySelector('[data-testid="variations-summary"]')?.textContent).toBe('Accepted $2,300.00 · Variation 1 $120.00 awaiting approval');
    expect(text()).not.toContain('Accept this quote');
    click(button('Approve Variation 1'));
    click(button('Approve Variation 1 ($120.00)'));
    await until(() => expect(text()).toContain(CLIENT_LINK_MESSAGES.nameRequired));
    type(byLabel('Your full name'), ' Jo Bloggs ');
    click(button('Approve Variation 1 ($120.00)'));
    await until(() => expect(h.container.querySelector('[data-testid="variations-summary"]')?.textContent).toBe('Accepted $2,300.00 · Variation 1 $120.00 approved'));
    expect(h.container.querySelector('[data-testid="client-variation-status-v1"]')?.textContent).toBe('Approved by Jo Bloggs on 30 November 2026');
    const posts = calls.filter((c) => c.method === 'POST');
    expect(posts).toEqual([{ method: 'POST', path: `/public/quotes/${TOKEN}/variations/v1/accept`, body: { signer_name: 'Jo Bloggs', signature_png: null, shown_sha256: 'b'.repeat(64) }, auth: null }]);
  });

  it('declines it with a note', async () => {
    const { api, calls } = mockApi((method) => json(method === 'GET' ? accepted() : accepted(variation({ status: 'declined', status_label: 'Declined', declined_at: '2026-11-30T01:00:00Z' }))));
    render(<QuotePage api={api} token={TOKEN} />);
    await until(() => expect(text()).toContain('Variation 1 · $120.00'));
    click(button('Decline'));
    type(byLabel('Anything to tell them? (optional)'), 'Not this year');
    click(button('Decline Variation 1'));
    await until(() => expect(h.container.querySelector('[data-testid="client-variation-status-v1"]')?.textContent).toBe('Declined on 30 November 2026'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ note: 'Not this year' });
  });
});

describe('the invoice page', () => {
  it('with card payments and a card fee: shows the fee and the total before paying, then goes to Checkout', async () => {
    const page = invoice({ pay: { surcharge: { percent: 2, amount: 46, formatted: '$46.00', total_formatted: '$2,346.00' } } });
    const { api, calls } = mockApi((method) => (method === 'GET' ? json(page) : json({ checkout_url: 'https://checkout.example/cs_1' })));
    const goTo = vi.fn();
    render(<InvoicePage api={api} token={TOKEN} returnedFromPayment={false} goTo={goTo} />);
    await until(() => expect(text()).toContain('Tax invoice INV-0007'));
    expect(h.container.querySelector('[data-testid="client-balance"]')?.textContent).toBe('$2,300.00');
    expect(h.container.querySelector('[data-testid="client-surcharge"]')?.textContent).toBe('$46.00');
    expect(h.container.querySelector('[data-testid="client-pay-total"]')?.textContent).toBe('$2,346.00');
    expect(text()).not.toContain('Account number');
    click(button('Pay now $2,346.00'));
    click(button(/Opening secure payment|Pay now/));
    await until(() => expect(goTo).toHaveBeenCalledWith('https://checkout.example/cs_1'));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([`/public/invoices/${TOKEN}/checkout`]);
    expect(beacons).toEqual([`/api/v1/public/links/${TOKEN}/viewed`]);
  });

  it('the business closed its account while the page was open: Pay now shows why, as the whole page', async () => {
    let closed = false;
    const { api, calls } = mockApi((method) => {
      if (method === 'GET' && !closed) return json(invoice({ pay: { surcharge: null } }));
      closed = true;
      return json({ detail: CLIENT_LINK_MESSAGES.accountClosed }, 410);
    });
    const goTo = vi.fn();
    render(<InvoicePage api={api} token={TOKEN} returnedFromPayment={false} goTo={goTo} />);
    await until(() => expect(text()).toContain('Pay now $2,300.00'));
    click(button('Pay now $2,300.00'));
    await until(() => expect(h.container.querySelector('[role="alert"] h1')?.textContent).toBe('This link no longer works'));
    expect(h.container.querySelector('[role="alert"]')?.textContent).toContain(CLIENT_LINK_MESSAGES.accountClosed);
    expect(text()).not.toContain('Ngata Plumbing');
    expect(text()).not.toContain('Pay now');
    expect(goTo).not.toHaveBeenCalled();
    expect(calls.map((c) => c.method)).toEqual(['GET', 'POST', 'GET']);
  });

  it('without card payments: the bank details, the payments so far and the balance', async () => {
    const page = invoice({
      state: 'partial',
      payments: [{ date: '2026-11-21', amount: 300, formatted: '$300.00', method_label: 'Bank transfer' }],
      document: { ...invoice().document, paid: 300, balance: 2000, formatted: { ...invoice().document.formatted, paid: '$300.00', balance: '$2,000.00' } },
    });
    const { api } = mockApi(() => json(page));
    render(<InvoicePage api={api} token={TOKEN} returnedFromPayment={false} goTo={vi.fn()} />);
    await until(() => expect(text()).toContain('How to pay'));
    expect(text()).toContain('12-3456-7890123-00');
    expect(text()).toContain('Ngata Plumbing Ltd');
    expect(text()).toContain('21 November 2026 · Bank transfer$300.00');
    expect(h.container.querySelector('[data-testid="client-balance"]')?.textContent).toBe('$2,000.00');
    expect(text()).not.toContain('Pay now');
  });

  it('a business not registered for GST: titled Invoice, no GST anywhere, just the total', async () => {
    const line = { description: 'Replace hot water cylinder', qty: 1, unit_price: 2000, tax_included: false, tax_rate: 0, amount: 2000, gst: 0, amount_excl_gst: 2000, formatted: { unit_price: '$2,000.00', amount: '$2,000.00' } };
    const page = invoice({
      business: { ...business, gst_number: '' },
      document: {
        ...invoice().document, title: 'Invoice', gst_registered: false, line_items: [line], subtotal: 2000, gst: 0, total: 2000, balance: 2000,
        formatted: { subtotal: '$2,000.00', gst: '$0.00', total: '$2,000.00', paid: '$0.00', balance: '$2,000.00' },
      },
    });
    const { api } = mockApi(() => json(page));
    render(<InvoicePage api={api} token={TOKEN} returnedFromPayment={false} goTo={vi.fn()} />);
    await until(() => expect(text()).toContain('How to pay'));
    expect(h.container.querySelector('h1')?.textContent).toBe('Invoice INV-0007');
    expect(text()).not.toContain('GST');
    expect(h.container.querySelector('[data-testid="client-total"]')?.textContent).toBe('$2,000.00');
  });

  it('after a credit note and a refund: each credit note with its amount, reason and PDF, and figures that add up to the balance', async () => {
    // $873.50 paid in full, then $80.00 credited and paid back: Total − credit − paid + paid back = $0.00.
    const page = invoice({
      state: 'paid',
      payments: [{ date: '2026-11-21', amount: 873.5, formatted: '$873.50', method_label: 'Bank transfer' }],
      credit_notes: [{ reference: 'CN-0001', date: '2026-11-25', reason: 'Labour not needed', total: 80, formatted: { total: '$80.00', refunded: '$80.00' }, pdf_url: `/public/invoices/${TOKEN}/credit-notes/cn1/pdf` }],
      money: { credited: '$80.00', received: '$873.50', refunded: '$80.00' },
      document: { ...invoice().document, total: 873.5, paid: 793.5, balance: 0, formatted: { ...invoice().document.formatted, total: '$873.50', paid: '$793.50', balance: '$0.00' } },
    });
    const { api } = mockApi(() => json(page));
    render(<InvoicePage api={api} token={TOKEN} returnedFromPayment={false} goTo={vi.fn()} />);
    await until(() => expect(text()).toContain('Credit notes'));
    const shown = (id: string) => h.container.querySelector(`[data-testid="${id}"]`)?.textContent;
    expect([shown('client-total'), shown('client-credited'), shown('client-paid'), shown('client-refunded'), shown('client-balance')]).toEqual(['$873.50', '−$80.00', '$873.50', '+$80.00', '$0.00']);
    const note = h.container.querySelector('[data-testid="client-credit-note"]')!;
    expect(note.textContent).toContain('CN-0001 · 25 November 2026');
    expect(note.textContent).toContain('Labour not needed');
    expect(note.textContent).toContain('$80.00 paid back to you');
    expect(note.textContent).toContain('−$80.00');
    expect(note.querySelector('a')?.getAttribute('href')).toBe(`/api/v1/public/invoices/${TOKEN}/credit-notes/cn1/pdf`);
  });

  it('a business that set no details and no bank account: no header, and the client is asked to contact the business', async () => {
    const blank = { name: '', gst_number: '', phone: '', email: '', address: '', logo_url: '' };
    const { api } = mockApi(() => json(invoice({ business: blank, bank: null })));
    render(<InvoicePage api={api} token={TOKEN} returnedFromPayment={false} goTo={vi.fn()} />);
    await until(() => expect(text()).toContain('Please contact the business to pay this invoice.'));
    expect(h.container.querySelector('.client-business')).toBeNull();
  });

  it('back from Checkout (?paid=1): thanks the client and checks again, further apart, until it is paid', async () => {
    let gets = 0;
    const { api } = mockApi(() => {
      gets += 1;
      return json(gets < 3 ? invoice({ pay: { surcharge: null } }) : invoice({ state: 'paid', document: { ...invoice().document, balance: 0 } }));
    });
    render(<InvoicePage api={api} token={TOKEN} returnedFromPayment goTo={vi.fn()} pollDelays={[20, 40, 80, 160]} />);
    await until(() => expect(text()).toContain(PAYMENT_CONFIRMING));
    expect(text()).not.toContain('Pay now');
    await until(() => expect(text()).toContain(CLIENT_LINK_MESSAGES.paid));
    expect(gets).toBe(3);
    // Paid: no more checks.
    await act(() => new Promise((r) => setTimeout(r, 400)));
    expect(gets).toBe(3);
  });

  it('back from Checkout, the payment never arrives: it stops checking after the last wait', async () => {
    let gets = 0;
    const { api } = mockApi(() => {
      gets += 1;
      return json(invoice({ pay: { surcharge: null } }));
    });
    render(<InvoicePage api={api} token={TOKEN} returnedFromPayment goTo={vi.fn()} pollDelays={[10, 20]} />);
    await until(() => expect(text()).toContain('It can take a few minutes'));
    await act(() => new Promise((r) => setTimeout(r, 200)));
    expect(gets).toBe(3);
  });
});
