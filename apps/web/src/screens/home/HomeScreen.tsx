import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { ClientsIcon, InvoiceIcon, PlusIcon, TaxIcon } from '../../ui/icons.tsx';
import { AccountingBehindBanner } from './AccountingBehindBanner.tsx';
import { DeliveryFailuresBanner, OverdueCard, RemindersNotice } from './HomeReminders.tsx';
import { MonthProfitCard } from './MonthProfitCard.tsx';
import { PaymentIssuesBanner } from './PaymentIssuesBanner.tsx';
import { SetupCard } from './SetupCard.tsx';

function HomeCard({ to, icon, title, text }: { to: '/app/calculator' | '/app/clients' | '/app/invoices' | '/app/costs'; icon: ReactNode; title: string; text: string }) {
  return (
    <li>
      <Link to={to} className="home-card card--link">
        <span className="icon-tile home-card__icon">{icon}</span>
        <span className="home-card__body">
          <span className="home-card__title">{title}</span>
          <span className="home-card__text">{text}</span>
        </span>
      </Link>
    </li>
  );
}

export function HomeScreen() {
  return (
    <section className="screen" aria-labelledby="home-title">
      <h1 id="home-title" className="screen-title">
        Hello!
      </h1>
      <p className="screen__subtitle">Ready to create a quote or check your numbers?</p>
      <SetupCard />
      <RemindersNotice />
      <PaymentIssuesBanner />
      <DeliveryFailuresBanner />
      <AccountingBehindBanner />
      <OverdueCard />
      <MonthProfitCard />
      <ul className="home-cards">
        <HomeCard
          to="/app/calculator"
          icon={<PlusIcon />}
          title="New Quote/Invoice"
          text="Price a job, see your profit and create a quote or invoice."
        />
        <HomeCard to="/app/clients" icon={<ClientsIcon />} title="Clients" text="Add, find and update the people you work for." />
        <HomeCard
          to="/app/invoices"
          icon={<InvoiceIcon />}
          title="Invoices & Quotes"
          text="See what's sent, what's paid and what's still owing."
        />
        <HomeCard to="/app/costs" icon={<TaxIcon />} title="Costs & Hours" text="Record receipts, bills and hours against a job; their GST counts in your return." />
      </ul>
    </section>
  );
}
