import type { ComponentType } from 'react';

/** A pre-rendered public page: its address, its <head> text and its component (loaded lazily). */
export interface PublicPage {
  path: string;
  title: string;
  description: string;
  load: () => Promise<{ default: ComponentType }>;
}

export const publicPages: readonly PublicPage[] = [
  {
    path: '/',
    title: 'Tradie Quotes — Know your real profit before you quote',
    description:
      'Quoting, invoicing and GST for New Zealand tradies. Price a job on your phone, see your real profit after costs and GST, then send a professional quote or invoice. Free for 14 days, no card needed.',
    load: () => import('./pages/LandingPage.tsx'),
  },
  {
    path: '/features',
    title: 'Features — profit calculator, quotes, invoices and GST reports | Tradie Quotes',
    description:
      'Everything Tradie Quotes does: a profit calculator with margin and GST, quotes and invoices as PDFs by email, payment tracking, clients, templates, Xero sync and NZ GST reports.',
    load: () => import('./pages/FeaturesPage.tsx'),
  },
  {
    path: '/pricing',
    title: 'Pricing — free 14-day trial, then $7.50 a month | Tradie Quotes',
    description:
      'One plan with everything in it: try Tradie Quotes free for 14 days with no credit card, then Full Access is $7.50 a month plus GST, billed monthly or annually.',
    load: () => import('./pages/PricingPage.tsx'),
  },
  {
    path: '/how-it-works',
    title: 'How it works — quote on-site, send the invoice, get paid | Tradie Quotes',
    description:
      'Three steps from the driveway to the bank: price the job and quote on-site, send the invoice as a PDF by email, then record the payment and sync it to your accounts.',
    load: () => import('./pages/HowItWorksPage.tsx'),
  },
  {
    path: '/privacy',
    title: 'Privacy policy | Tradie Quotes',
    description:
      'What Tradie Quotes collects, why, who it is shared with, how long it is kept and how to see, correct, export or delete your information under the NZ Privacy Act 2020.',
    load: () => import('./pages/PrivacyPage.tsx'),
  },
  {
    path: '/terms',
    title: 'Terms of service | Tradie Quotes',
    description:
      'The terms for using Tradie Quotes: the free trial, fees and notice of changes, refunds, your data and exports, record keeping, liability and cancelling.',
    load: () => import('./pages/TermsPage.tsx'),
  },
  {
    path: '/about',
    title: 'About | Tradie Quotes',
    description:
      'Tradie Quotes is a quoting and invoicing app built for New Zealand tradespeople: exact GST, honest profit numbers, your data yours to export, and pages that work on a weak signal.',
    load: () => import('./pages/AboutPage.tsx'),
  },
  {
    path: '/support',
    title: 'Support and help | Tradie Quotes',
    description:
      'How to get help with Tradie Quotes: contact support, reset your password, install the app on your phone, export your data, connect Xero and manage your subscription.',
    load: () => import('./pages/SupportPage.tsx'),
  },
];

/** '/features/' and '/features' are the same page. */
export function normalisePath(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

export function publicPageFor(pathname: string): PublicPage | undefined {
  const path = normalisePath(pathname);
  return publicPages.find((page) => page.path === path);
}
