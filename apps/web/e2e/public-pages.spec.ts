import { expect, test } from '@playwright/test';
import {
  collectErrors,
  expectNoHorizontalOverflow,
  expectNoSeriousA11yViolations,
  expectTapTargets,
  saveScreenshot,
} from './helpers.ts';

interface PublicRoute {
  path: string;
  h1: RegExp | string;
  content: readonly (RegExp | string)[];
}

const routes: readonly PublicRoute[] = [
  {
    path: '/',
    h1: 'Know your real profit before you quote',
    content: ['How It Works', 'Profit calculator', 'Professional invoicing', 'Tax-service compatible', 'Free 14-Day Trial', 'Full Access $7.50/month', 'Best Value'],
  },
  {
    path: '/features',
    h1: /Everything between the first phone call/,
    content: ['Quote & profit calculator', 'Quotes and invoices', 'One-tap accounting sync', 'GST and tax reports', 'Timesheets', 'Coming Soon', 'Convert an accepted quote into an invoice', 'Typeahead search'],
  },
  {
    path: '/pricing',
    h1: 'One plan. Everything in it.',
    content: ['Free 14-Day Trial', '$0', 'Full Access $7.50/month', 'Best Value', 'excluding GST', 'Billed monthly or annually', 'Coming Soon: Add-ons', 'Timesheets', '+$3/month', 'SMS payment reminders', '+$4/month', 'Team accounts', '+$5/user/month', 'Frequently asked questions', 'Can I get a refund?'],
  },
  {
    path: '/how-it-works',
    h1: /From the driveway to the bank/,
    content: ['Quote on-site', 'Send invoice', 'Get paid & sync', 'Video demo coming soon', 'Common Questions'],
  },
  {
    path: '/privacy',
    h1: 'Privacy policy',
    content: ['Last updated', 'within 30 days', '7 years', '20 working days', '18 or older', 'Privacy Act 2020'],
  },
  {
    path: '/terms',
    h1: 'Terms of service',
    content: [
      'Last updated',
      "30 days' notice before any change to our fees",
      "30 days' notice of any material change",
      'fees you paid us in the 12 months',
      'export of your data for 30 days',
      'delete your personal information within 30 days',
      'kept for 7 years, as New Zealand tax rules require',
      '18 or older',
      'non-refundable except where the law requires',
    ],
  },
  {
    path: '/about',
    h1: 'Built for the people who build things',
    content: ['What it does', 'What we keep, and for how long', 'Your data is yours'],
  },
  {
    path: '/support',
    h1: 'How can we help?',
    content: ['Contact support', 'I forgot my password', 'Your data and how to export it', 'Download CSV', 'Add the app to my phone'],
  },
];

for (const route of routes) {
  test.describe(`public page ${route.path}`, () => {
    test('shows its content, passes axe, fits the screen, hydrates cleanly', async ({ page }, testInfo) => {
      const errors = collectErrors(page);
      await page.goto(route.path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(route.h1);
      const main = page.locator('main');
      for (const text of route.content) await expect(main).toContainText(text);

      // Header and footer on every public page.
      const header = page.getByRole('navigation', { name: 'Main' });
      await expect(header.getByRole('link', { name: 'Features' })).toHaveAttribute('href', '/features');
      await expect(header.getByRole('link', { name: 'Pricing' })).toHaveAttribute('href', '/pricing');
      await expect(header.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
      await expect(header.getByRole('link', { name: 'Try Free' })).toHaveAttribute('href', '/signup');
      const footer = page.getByRole('navigation', { name: 'Footer' });
      for (const href of ['/about', '/support', '/terms', '/privacy']) await expect(footer.locator(`a[href="${href}"]`)).toBeVisible();

      await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true', { timeout: 15_000 });
      await expectNoSeriousA11yViolations(page);
      await expectNoHorizontalOverflow(page);
      await expectTapTargets(page, '.site-header a, .site-footer nav a, .button, summary');
      await saveScreenshot(page, testInfo, route.path);
      expect(errors).toEqual([]);
    });

    test('has its own title, description and Open Graph tags', async ({ page }) => {
      await page.goto(route.path);
      const title = await page.title();
      expect(title).toMatch(/Tradie Quotes/);
      const description = await page.locator('meta[name="description"]').getAttribute('content');
      expect(description?.length ?? 0).toBeGreaterThan(60);
      await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', title);
      await expect(page.locator('meta[property="og:description"]')).toHaveAttribute('content', description ?? '');
      await expect(page.locator('meta[property="og:image"]')).toHaveAttribute('content', /og-image\.png$/);
      await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
    });
  });
}

test('every public page has a different title and description', async ({ page }) => {
  const seen = new Map<string, string>();
  for (const route of routes) {
    await page.goto(route.path);
    const key = `${await page.title()}|${await page.locator('meta[name="description"]').getAttribute('content')}`;
    expect(seen.get(key), `${route.path} repeats ${seen.get(key)}`).toBeUndefined();
    seen.set(key, route.path);
  }
});

test('privacy and terms show today as "Last updated", in the NZ date format', async ({ page }) => {
  const today = new Intl.DateTimeFormat('en-NZ', { timeZone: 'Pacific/Auckland' }).format(new Date());
  expect(today).toMatch(/^\d{1,2}\/\d{2}\/\d{4}$/);
  for (const path of ['/privacy', '/terms']) {
    await page.goto(path);
    await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true', { timeout: 15_000 });
    await expect(page.locator('.last-updated')).toHaveText(`Last updated: ${today}`);
  }
});

test('the landing page links to its How It Works section', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'See how it works' }).click();
  await expect(page).toHaveURL(/#how-it-works$/);
  await expect(page.locator('#how-it-works')).toBeInViewport();
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('the pre-rendered landing page has the hero, the sections and working links', async ({ page }) => {
    const response = await page.goto('/');
    expect(response?.headers()['content-type']).toContain('text/html');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Know your real profit before you quote');
    await expect(page.locator('#how-it-works')).toContainText('Profit calculator');
    await expect(page.locator('main')).toContainText('Full Access $7.50/month');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('One plan. Everything in it.');
    // The FAQ opens without any script.
    await page.getByText('Can I get a refund?').click();
    await expect(page.getByText('non-refundable except where the law requires a refund')).toBeVisible();
  });
});
