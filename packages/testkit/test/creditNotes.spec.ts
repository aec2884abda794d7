// Credit notes against the independent oracle: whatever lines (and part quantities) are credited,
// the credits never come to more than the invoice's total, a credit of some whole lines carries
// the GST the oracle gives those lines rounded as the invoice is, and once the whole invoice is
// credited the credit notes' GST, subtotal and total add up to the invoice's to the cent.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DomainError, documentDecider, documentFigures, foldDocument, toCents,
  type CreditRequest, type DocumentEvent, type DocumentState, type DocumentView,
} from '@tradie/domain';
import { oracleDocumentArb } from '../src/oracle/arbitraries.ts';
import { oracleTotals, type OracleLine, type OracleRounding } from '../src/oracle/oracle.ts';
import { toDomainLine } from '../src/oracle/toEvents.ts';

function issuedInvoice(lines: OracleLine[], rounding: OracleRounding): DocumentEvent[] {
  const drafted = documentDecider.decide(
    {
      type: 'DraftDocument',
      data: { documentId: 'inv-1', type: 'invoice', number: 1, reference: 'INV-0001', client: null, lines: lines.map(toDomainLine), gstRounding: rounding, issueDate: '2026-05-04', paymentTerms: '7 days' },
    },
    { status: 'none' },
  );
  return [...drafted, { type: 'DocumentIssued', data: { documentId: 'inv-1' } }];
}

/** Issues a credit note, or answers null when the domain refuses it (any other error fails the test). */
function credit(state: DocumentState, n: number, request: CreditRequest): DocumentEvent | null {
  try {
    const [e] = documentDecider.decide(
      { type: 'IssueCreditNote', data: { creditNoteId: `cn-${n}`, number: n, reference: `CN-${n}`, date: '2026-06-02', reason: 'Job changed', supplier: { name: 'Kauri Plumbing', gstNumber: '49-091-850' }, credit: request } },
      state,
    );
    return e!;
  } catch (err) {
    if (err instanceof DomainError) return null;
    throw err;
  }
}

/** A part of each line's quantity: 0 (leave it out) to the whole, on 0.001 steps. */
const partsArb = (n: number): fc.Arbitrary<number[]> => fc.array(fc.integer({ min: 0, max: 1000 }), { minLength: n, maxLength: n });

/** A quantity of at most 3 decimals in thousandths, exactly. */
const milli = (q: string): bigint => {
  const [w, f = ''] = q.split('.');
  return BigInt(w!) * 1000n + BigInt(f.padEnd(3, '0').slice(0, 3));
};
const fromMilli = (m: bigint): string => `${m / 1000n}.${String(m % 1000n).padStart(3, '0')}`;
const creditedMilli = (d: DocumentView, lineIndex: number): bigint =>
  d.creditNotes.flatMap((c) => c.lines).filter((x) => x.lineIndex === lineIndex).reduce((a, x) => a + milli(x.line.qty), 0n);

const dataOf = (e: DocumentEvent) => (e.type === 'CreditNoteIssued' ? e.data : null);

describe('credit notes: the domain against the oracle', () => {
  it('a credit of some whole lines carries the GST the oracle gives them, rounded as the invoice', () => {
    fc.assert(
      fc.property(oracleDocumentArb(12), fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }), ({ lines, rounding }, pick) => {
        const whole = oracleTotals(lines, rounding);
        fc.pre(whole.total > 0n);
        const chosen = lines.map((l, i) => ({ l, i })).filter(({ l, i }) => pick[i] && milli(l.qty) > 0n);
        fc.pre(chosen.length > 0);
        const expected = oracleTotals(chosen.map((c) => c.l), rounding);
        const e = credit(foldDocument(issuedInvoice(lines, rounding)), 1, { kind: 'lines', lines: chosen.map((c) => ({ lineIndex: c.i })) });
        if (expected.total <= 0n) return; // nothing to credit in those lines: refused or zero
        const d = dataOf(e!)!;
        expect(toCents(d.total)).toBeLessThanOrEqual(whole.total);
        if (chosen.length === lines.filter((l) => milli(l.qty) > 0n).length) {
          // Everything: exactly the invoice.
          expect([toCents(d.subtotal), toCents(d.gst), toCents(d.total)]).toEqual([whole.subtotal, whole.gst, whole.total]);
        } else if (expected.total < whole.total) {
          expect([toCents(d.subtotal), toCents(d.gst), toCents(d.total), toCents(d.zeroRated)]).toEqual([expected.subtotal, expected.gst, expected.total, expected.zeroRated]);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('part credits then the rest: never more than is left, and in the end exactly the invoice (credit GST + remaining GST = invoice GST)', () => {
    fc.assert(
      fc.property(oracleDocumentArb(8), fc.array(partsArb(8), { maxLength: 3 }), ({ lines, rounding }, rounds) => {
        const whole = oracleTotals(lines, rounding);
        fc.pre(whole.total > 0n);
        const events = issuedInvoice(lines, rounding);
        let n = 0;
        const credited = { total: 0n, gst: 0n, subtotal: 0n };
        const take = (e: DocumentEvent | null): void => {
          if (!e) return;
          const d = dataOf(e)!;
          // Never more than what is left of the invoice's total.
          expect(toCents(d.total)).toBeGreaterThan(0n);
          expect(credited.total + toCents(d.total)).toBeLessThanOrEqual(whole.total);
          credited.total += toCents(d.total);
          credited.gst += toCents(d.gst);
          credited.subtotal += toCents(d.subtotal);
          events.push(e);
        };
        for (const parts of rounds) {
          const state = foldDocument(events) as DocumentView;
          const request = lines
            .map((l, i) => {
              const left = milli(l.qty) - creditedMilli(state, i);
              const qty = (left * BigInt(parts[i] ?? 0)) / 1000n;
              return { lineIndex: i, qty: fromMilli(qty) };
            })
            .filter((r) => milli(r.qty) > 0n);
          if (request.length > 0) take(credit(state, ++n, { kind: 'lines', lines: request }));
        }
        // The rest: every line with something left, all of it.
        const state = foldDocument(events) as DocumentView;
        const rest = lines.map((l, i) => ({ l, i })).filter(({ l, i }) => milli(l.qty) > 0n && creditedMilli(state, i) < milli(l.qty));
        if (rest.length > 0) take(credit(state, n + 1, { kind: 'lines', lines: rest.map(({ i }) => ({ lineIndex: i })) }));
        const after = foldDocument(events) as DocumentView;
        if (after.lines.every((l, i) => milli(l.qty) === 0n || creditedMilli(after, i) === milli(l.qty))) {
          expect(credited).toEqual({ total: whole.total, gst: whole.gst, subtotal: whole.subtotal });
          expect(whole.gst - credited.gst).toBe(0n);
          expect(documentFigures(after).balanceCents).toBe(0n);
        }
        expect(credited.total).toBeLessThanOrEqual(whole.total);
      }),
      { numRuns: 300 },
    );
  });

  it('an amount: never more than is left, and nothing decided when refused', () => {
    fc.assert(
      fc.property(oracleDocumentArb(6), fc.bigInt({ min: 1n, max: 10_000_000n }), fc.bigInt({ min: 1n, max: 10_000_000n }), ({ lines, rounding }, a, b) => {
        const whole = oracleTotals(lines, rounding);
        fc.pre(whole.total > 0n);
        const events = issuedInvoice(lines, rounding);
        const amount = (c: bigint): string => `${c / 100n}.${String(c % 100n).padStart(2, '0')}`;
        const first = credit(foldDocument(events), 1, { kind: 'amount', amount: amount(a) });
        expect(first === null).toBe(a > whole.total);
        if (first) events.push(first);
        const left = whole.total - (first ? a : 0n);
        const second = credit(foldDocument(events), 2, { kind: 'amount', amount: amount(b) });
        expect(second === null).toBe(b > left);
        if (first && second && b === left) {
          // The credit that closes the invoice carries what is left of its GST.
          expect(toCents(dataOf(first!)!.gst) + toCents(dataOf(second)!.gst)).toBe(whole.gst);
        }
      }),
      { numRuns: 300 },
    );
  });
});
