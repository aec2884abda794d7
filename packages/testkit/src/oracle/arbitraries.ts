// fast-check generators of documents and invoice histories for the oracle's property tests: GST on
// or off, prices on 0.0001 steps, quantities with 3 decimals, up to 100 lines, both rounding
// settings; payments, part payments, payments removed later, voids in later periods, drafts.
import fc from 'fast-check';
import { oracleTotals, type OracleCredit, type OracleInvoice, type OracleLine, type OracleRounding, type OracleStep } from './oracle.ts';

/** A decimal text with `dp` places from 0 to maxUnits × 10^-dp. */
const decimalText = (maxUnits: number, dp: number): fc.Arbitrary<string> =>
  fc.integer({ min: 0, max: maxUnits }).map((u) => {
    const s = String(u).padStart(dp + 1, '0');
    return `${s.slice(0, -dp)}.${s.slice(-dp)}`;
  });

/** Quantities to 1,000 with 3 decimals, mostly small whole numbers as on a real job. */
export const oracleQtyArb: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 20 }).map(String) },
  { weight: 2, arbitrary: decimalText(1_000_000, 3) },
);

/** Unit prices to $10,000 on 0.0001 steps, and on whole cents. */
export const oraclePriceArb: fc.Arbitrary<string> = fc.oneof(decimalText(100_000_000, 4), decimalText(1_000_000, 2));

export const oracleLineArb = (gstOn: boolean): fc.Arbitrary<OracleLine> =>
  fc.record({
    qty: oracleQtyArb,
    unitPrice: oraclePriceArb,
    inclusive: fc.boolean(),
    rate: gstOn ? fc.constantFrom<'0.15' | '0'>('0.15', '0.15', '0.15', '0') : fc.constant<'0'>('0'),
  });

export const oracleDocumentArb = (maxLines = 100): fc.Arbitrary<{ lines: OracleLine[]; rounding: OracleRounding }> =>
  fc.boolean().chain((gstOn) =>
    fc.record({
      lines: fc.array(oracleLineArb(gstOn), { minLength: 1, maxLength: maxLines }),
      rounding: fc.constantFrom<OracleRounding>('total', 'line'),
    }),
  );

const DAY = 86_400_000;
export const addDays = (date: string, days: number): string => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

/** What a person does to an invoice's money, before it is turned into consistent steps. */
const actionArb = fc.oneof(
  fc.record({ kind: fc.constant<'pay'>('pay'), percent: fc.integer({ min: 1, max: 100 }), after: fc.integer({ min: -30, max: 100 }) }),
  fc.record({ kind: fc.constant<'remove'>('remove'), pick: fc.nat(), after: fc.integer({ min: 0, max: 120 }) }),
);

/**
 * Invoice histories that the product would accept: payments never above the balance, removals of
 * payments that exist, a void only once nothing is paid (the rest removed first), dates moving
 * forward from each payment, no payment on an issued invoice dated before its time of supply;
 * some invoices dated ahead of the day they were issued. Issue dates in 2026–2027, so any range
 * over them has corrections.
 */
export const oracleInvoicesArb = (options: { maxInvoices?: number; maxLines?: number } = {}): fc.Arbitrary<OracleInvoice[]> =>
  fc.array(
    fc.record({
      doc: oracleDocumentArb(options.maxLines ?? 12),
      issueDay: fc.integer({ min: 0, max: 729 }),
      client: fc.constantFrom('', 'Aroha Ngata', 'Ben Smith', 'Kōwhai Builders Ltd (Mere Tane)', 'apple', 'Zed'),
      issued: fc.boolean(),
      // Dated this many days ahead of the day it was issued (postdated), sometimes.
      postdated: fc.option(fc.integer({ min: 1, max: 100 }), { nil: null, freq: 3 }),
      actions: fc.array(actionArb, { maxLength: 5 }),
      void: fc.option(fc.integer({ min: 0, max: 150 }), { nil: null, freq: 4 }),
    }),
    { minLength: 1, maxLength: options.maxInvoices ?? 20 },
  ).map((specs) =>
    specs.map((s, i): OracleInvoice => {
      const issueDate = addDays('2026-01-01', s.issueDay);
      const issuedOn = s.issued && s.postdated !== null ? addDays(issueDate, -s.postdated) : issueDate;
      const total = oracleTotals(s.doc.lines, s.doc.rounding).total;
      const steps: OracleStep[] = [];
      const live = new Map<string, bigint>();
      let balance = total;
      let last = issueDate;
      const later = (date: string) => (date > last ? (last = date) : last);
      // Once issued, the time of supply is fixed: a payment is never dated before it.
      let supply = s.issued ? (issuedOn < issueDate ? issuedOn : issueDate) : null;
      s.actions.forEach((a, k) => {
        if (a.kind === 'pay') {
          if (balance <= 0n) return;
          const cents = (balance * BigInt(a.percent) + 99n) / 100n;
          const id = `p${i}-${k}`;
          // A payment may be dated before the invoice (a deposit on a draft, which issues it); a
          // removal always comes after it.
          const asked = addDays(issueDate, a.after);
          const date = supply !== null && asked < supply ? supply : asked;
          if (supply === null) supply = date < issueDate ? date : issueDate;
          steps.push({ kind: 'pay', id, cents, date });
          if (date > last) last = date;
          live.set(id, cents);
          balance -= cents;
        } else if (live.size > 0) {
          const ids = [...live.keys()];
          const id = ids[a.pick % ids.length]!;
          steps.push({ kind: 'remove', id, date: later(addDays(last, a.after)) });
          balance += live.get(id)!;
          live.delete(id);
        }
      });
      let voidDate: string | null = null;
      if (s.void !== null) {
        for (const id of [...live.keys()]) steps.push({ kind: 'remove', id, date: later(addDays(last, 1)) });
        live.clear();
        voidDate = later(addDays(last, s.void));
      }
      return { id: `inv-${i}`, issueDate, client: s.client, lines: s.doc.lines, rounding: s.doc.rounding, issued: s.issued, ...(s.issued ? { issuedOn } : {}), steps, voidDate };
    }),
  );

/**
 * The histories of `invoicesArb` with credit notes of amounts added the way the product allows
 * them: on issued invoices that are not void, after their payments, never more than is left to
 * credit; and money paid back on a credit note only while the invoice owes the client money back,
 * never more than is left of the note, dated on or after it.
 */
export const withCreditsArb = (invoicesArb: fc.Arbitrary<OracleInvoice[]>): fc.Arbitrary<OracleInvoice[]> =>
  invoicesArb.chain((invoices) =>
    fc.tuple(
      ...invoices.map(() =>
        fc.array(fc.record({ percent: fc.integer({ min: 1, max: 100 }), after: fc.integer({ min: 0, max: 120 }), refund: fc.option(fc.record({ percent: fc.integer({ min: 1, max: 100 }), after: fc.integer({ min: 0, max: 60 }) }), { nil: null }) }), { maxLength: 2 }),
      ),
    ).map((plans) =>
      invoices.map((inv, i): OracleInvoice => {
        const plan = plans[i] ?? [];
        const issued = inv.issued || inv.steps.some((s) => s.kind === 'pay');
        if (!issued || inv.voidDate !== null || plan.length === 0) return inv;
        const total = oracleTotals(inv.lines, inv.rounding).total;
        const amounts = new Map<string, bigint>();
        let received = 0n;
        for (const s of inv.steps) {
          if (s.kind === 'pay') {
            amounts.set(s.id, s.cents);
            received += s.cents;
          } else received -= amounts.get(s.id) ?? 0n;
        }
        let last = [inv.issueDate, ...inv.steps.map((s) => s.date)].sort().at(-1)!;
        let credited = 0n;
        let refunded = 0n;
        const credits: OracleCredit[] = [];
        plan.forEach((p, k) => {
          const left = total - credited;
          if (left <= 0n) return;
          const cents = (left * BigInt(p.percent) + 99n) / 100n;
          const date = addDays(last, p.after);
          last = date;
          credited += cents;
          const credit: OracleCredit = { id: `${inv.id}-cn${k}`, date, cents, refunds: [] };
          const owedBack = -(total - (received - refunded) - credited);
          if (p.refund && owedBack > 0n) {
            const most = owedBack < cents ? owedBack : cents;
            const back = (most * BigInt(p.refund.percent) + 99n) / 100n;
            const refundDate = addDays(date, p.refund.after);
            last = refundDate;
            credit.refunds.push({ date: refundDate, cents: back > most ? most : back });
            refunded += credit.refunds[0]!.cents;
          }
          credits.push(credit);
        });
        return credits.length === 0 ? inv : { ...inv, credits };
      }),
    ),
  );
