// The credit-note arithmetic of the push to the accounting system: worked examples, then the
// properties the push relies on (never more allocated than owed, never more paid out of a note
// than it has left, and a repeat after a crash part-way sends only what is left).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type NoteThere, type NoteWithRefunds, type RefundPartSent, creditAllocations, planCreditRefunds } from './accountingCredits.ts';

const sum = (xs: readonly bigint[]): bigint => xs.reduce((a, x) => a + x, 0n);
const max0 = (a: bigint): bigint => (a < 0n ? 0n : a);
const centsArb = (max: number) => fc.integer({ min: 0, max }).map(BigInt);

describe('allocating credit notes to the invoice there', () => {
  it('$465.75 invoice, $400 paid: a $207 note takes the $65.75 owed and $141.25 stays as credit; a second note takes nothing', () => {
    const notes: NoteThere[] = [
      { creditNoteId: 'cn1', totalCents: 20700n, allocatedCents: null },
      { creditNoteId: 'cn2', totalCents: 5000n, allocatedCents: null },
    ];
    expect(creditAllocations(46575n, 40000n, notes)).toEqual([
      { creditNoteId: 'cn1', cents: 6575n, settles: true },
      { creditNoteId: 'cn2', cents: 0n, settles: false },
    ]);
  });

  it('a note already allocated counts against what is owed and is not allocated again', () => {
    const notes: NoteThere[] = [
      { creditNoteId: 'cn1', totalCents: 10000n, allocatedCents: 10000n },
      { creditNoteId: 'cn2', totalCents: 5000n, allocatedCents: null },
    ];
    expect(creditAllocations(46575n, 0n, notes)).toEqual([{ creditNoteId: 'cn2', cents: 5000n, settles: false }]);
  });

  const notesArb = fc.array(
    fc.record({ totalCents: centsArb(100_000), allocated: fc.option(centsArb(100_000), { nil: null }) }).map(({ totalCents, allocated }) => ({
      totalCents,
      allocatedCents: allocated === null ? null : allocated > totalCents ? totalCents : allocated,
    })),
    { maxLength: 6 },
  ).map((xs) => xs.map((x, i): NoteThere => ({ creditNoteId: `cn${i + 1}`, ...x })));

  it('allocates exactly the smaller of what is owed there and the new notes’ credit, one note after another, never more than a note holds', () => {
    fc.assert(
      fc.property(centsArb(200_000), centsArb(200_000), notesArb, (total, paid, notes) => {
        const out = creditAllocations(total, paid, notes);
        const fresh = notes.filter((n) => n.allocatedCents === null);
        expect(out.map((a) => a.creditNoteId)).toEqual(fresh.map((n) => n.creditNoteId));
        const before = sum(notes.map((n) => n.allocatedCents ?? 0n));
        // The oracle: greedy filling, written as a whole.
        expect(sum(out.map((a) => a.cents))).toBe(
          sum(fresh.map((n) => n.totalCents)) < max0(total - paid - before) ? sum(fresh.map((n) => n.totalCents)) : max0(total - paid - before),
        );
        out.forEach((a, i) => {
          expect(a.cents >= 0n && a.cents <= fresh[i]!.totalCents).toBe(true);
          // A note left with credit means nothing was owed after it: every later note takes nothing.
          if (a.cents < fresh[i]!.totalCents) expect(out.slice(i + 1).every((b) => b.cents === 0n)).toBe(true);
        });
        // Exactly one allocation settles the invoice there, when there was something owing and the credit reached it.
        const owing = max0(total - paid - before);
        const settled = out.filter((a) => a.settles);
        expect(settled.length).toBe(owing > 0n && sum(fresh.map((n) => n.totalCents)) >= owing ? 1 : 0);
        // Recorded as allocated, there is nothing left to allocate.
        const after = notes.map((n) => ({ ...n, allocatedCents: n.allocatedCents ?? out.find((a) => a.creditNoteId === n.creditNoteId)!.cents }));
        expect(creditAllocations(total, paid, after)).toEqual([]);
      }),
    );
  });
});

describe('paying refunds out of the credit left there', () => {
  const note = (id: string, total: bigint, allocated: bigint, refunds: [string, bigint][] = []): NoteWithRefunds => ({
    creditNoteId: id,
    totalCents: total,
    allocatedCents: allocated,
    refunds: refunds.map(([refundId, cents]) => ({ refundId, cents })),
  });

  it('a refund takes its own note’s credit first, then the other notes’ in order', () => {
    // cn1: $207 with $65.75 allocated leaves $141.25; cn2: $50 with nothing allocated.
    const notes = [note('cn1', 20700n, 6575n), note('cn2', 5000n, 0n, [['r1', 16000n]])];
    expect(planCreditRefunds(notes, [])).toEqual({
      parts: [
        { refundId: 'r1', ownCreditNoteId: 'cn2', creditNoteId: 'cn2', cents: 5000n },
        { refundId: 'r1', ownCreditNoteId: 'cn2', creditNoteId: 'cn1', cents: 11000n },
      ],
      shortfall: null,
    });
  });

  it('a refund more than the credit left is the shortfall: it and the refunds after it are not planned', () => {
    const notes = [note('cn1', 10000n, 4000n, [['r1', 5000n], ['r2', 2000n], ['r3', 500n]])];
    expect(planCreditRefunds(notes, [{ refundId: 'r1', creditNoteId: 'cn1', cents: 5000n }])).toEqual({
      parts: [],
      shortfall: { refundId: 'r2', creditNoteId: 'cn1', availableCents: 1000n, owingCents: 2000n },
    });
  });

  const caseArb = fc
    .array(
      fc.record({ totalCents: centsArb(50_000), allocatedShare: fc.integer({ min: 0, max: 100 }), refunds: fc.array(centsArb(30_000).map((c) => c + 1n), { maxLength: 3 }) }),
      { minLength: 1, maxLength: 4 },
    )
    .map((xs) =>
      xs.map(
        (x, i): NoteWithRefunds => ({
          creditNoteId: `cn${i + 1}`,
          totalCents: x.totalCents,
          allocatedCents: (x.totalCents * BigInt(x.allocatedShare)) / 100n,
          refunds: x.refunds.map((cents, j) => ({ refundId: `r${i + 1}-${j + 1}`, cents })),
        }),
      ),
    );

  it('pays every refund before the shortfall in full, none after it, and never more out of a note than it has left', () => {
    fc.assert(
      fc.property(caseArb, (notes) => {
        const { parts, shortfall } = planCreditRefunds(notes, []);
        const refunds = notes.flatMap((n) => n.refunds.map((r) => ({ ...r, own: n.creditNoteId })));
        const stop = shortfall === null ? refunds.length : refunds.findIndex((r) => r.refundId === shortfall.refundId);
        refunds.forEach((r, i) => {
          const paid = sum(parts.filter((p) => p.refundId === r.refundId).map((p) => p.cents));
          expect(paid).toBe(i < stop ? r.cents : 0n);
        });
        for (const n of notes) {
          expect(sum(parts.filter((p) => p.creditNoteId === n.creditNoteId).map((p) => p.cents)) <= n.totalCents - n.allocatedCents).toBe(true);
        }
        expect(parts.every((p) => p.cents > 0n)).toBe(true);
        if (shortfall) {
          // What was left across the notes after the refunds before it, and it is not enough.
          const leftAll = sum(notes.map((n) => n.totalCents - n.allocatedCents)) - sum(parts.map((p) => p.cents));
          expect(shortfall.availableCents).toBe(leftAll);
          expect(shortfall.availableCents < shortfall.owingCents).toBe(true);
        }
        // Another note's credit is used only once the refund's own note has none left.
        for (const p of parts.filter((x) => x.creditNoteId !== x.ownCreditNoteId)) {
          const own = notes.find((n) => n.creditNoteId === p.ownCreditNoteId)!;
          const upTo = parts.slice(0, parts.indexOf(p));
          expect(sum(upTo.filter((x) => x.creditNoteId === own.creditNoteId).map((x) => x.cents))).toBe(own.totalCents - own.allocatedCents);
        }
      }),
    );
  });

  it('a repeat after a crash part-way sends exactly the parts that were not sent yet', () => {
    fc.assert(
      fc.property(caseArb, fc.nat(), (notes, cut) => {
        const first = planCreditRefunds(notes, []);
        const k = first.parts.length === 0 ? 0 : cut % (first.parts.length + 1);
        const sent: RefundPartSent[] = first.parts.slice(0, k).map((p) => ({ refundId: p.refundId, creditNoteId: p.creditNoteId, cents: p.cents }));
        expect(planCreditRefunds(notes, sent)).toEqual({ parts: first.parts.slice(k), shortfall: first.shortfall });
      }),
    );
  });
});
