// Whether the client's invoice page offers 'Pay now', and the surcharge it shows before paying.
import type { PublicInvoicePage } from '@tradie/contracts';
import { centsToNumber, formatNzd, wholeCentsOf } from '@tradie/domain';
import type { Sql } from '@tradie/store';
import type { AppDeps } from '../deps.ts';
import { loadPaymentAccount, type PaymentAccount } from './repository.ts';
import { surchargeCents } from './surcharge.ts';

export type PaymentOffer = PublicInvoicePage['pay'];

/** Card payments can be taken on this server at all: Stripe Connect is configured (STRIPE_SECRET_KEY and STRIPE_CONNECT_WEBHOOK_SECRET). */
export const cardPaymentsAvailable = (deps: Pick<AppDeps, 'connect'>): boolean => deps.connect != null;

/** The account can take a card payment now: its Stripe account is connected and may take charges. */
export const canTakeCards = (a: PaymentAccount | null): a is PaymentAccount & { stripeAccountId: string } =>
  a !== null && a.stripeAccountId !== null && a.chargesEnabled && a.disconnectedAt === null;

/** The surcharge in cents on `balanceCents` for the account's settings; 0 when it absorbs the fee. */
export function surchargeFor(a: Pick<PaymentAccount, 'surchargeEnabled' | 'surchargePercent'>, balanceCents: bigint): bigint {
  return a.surchargeEnabled ? surchargeCents(balanceCents, a.surchargePercent) : 0n;
}

/** The offer from the account's row and the balance in cents (pure). */
export function offerOf(a: PaymentAccount | null, balanceCents: bigint, available: boolean): PaymentOffer {
  if (!available || !canTakeCards(a) || balanceCents <= 0n) return null;
  if (!a.surchargeEnabled) return { surcharge: null };
  const cents = surchargeFor(a, balanceCents);
  return {
    surcharge: { percent: Number(a.surchargePercent), amount: centsToNumber(cents), formatted: formatNzd(cents), total_formatted: formatNzd(balanceCents + cents) },
  };
}

/**
 * The card payment offer for an invoice of `accountId` with `balance` (dollars and cents as a
 * decimal string) left to pay: null when card payments are not available for it.
 */
export async function paymentOfferFor(deps: Pick<AppDeps, 'config' | 'store' | 'connect'>, accountId: string, balance: string, sql: Sql = deps.store.db): Promise<PaymentOffer> {
  const cents = wholeCentsOf(balance);
  if (cents === null || cents <= 0n || !cardPaymentsAvailable(deps)) return null;
  return offerOf(await loadPaymentAccount(sql, accountId), cents, true);
}
