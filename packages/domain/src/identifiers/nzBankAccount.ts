// NZ bank account numbers: where a client sends the money, so a typo is worth catching.
//
// A number is bank (2 digits) – branch (4) – account base (7, or 8 in some formats) – suffix (2 or
// 3; up to 4). It is checked the way the banks' published specification says (docs/nz-bank-accounts.md):
// 1. the bank must be one we know and the branch inside one of the ranges allocated to that bank;
// 2. the 18 digits, each part padded with zeros to 2, 4, 8 and 4, are multiplied by the weights of
//    the bank's algorithm and summed, and the sum must divide by the algorithm's modulus. Banks on
//    'A or B' use A when the base is below 990000 and B from there on; algorithms E and G add the
//    digits of each product twice (49 → 13 → 4) before summing; X (bank 31) takes any number.
//
// Branch ranges change as banks open new ones, so a number with an unknown bank or branch is
// reported as such: the tradie can keep it when their bank really gave it to them. A failed check
// digit on a known branch is always a typo.

export type BankAccountProblem = 'format' | 'bank' | 'branch' | 'checksum';

export interface BankAccountParts {
  bank: string;
  branch: string;
  base: string;
  suffix: string;
}

export type BankAccountCheck = { valid: true; parts: BankAccountParts; formatted: string } | { valid: false; reason: BankAccountProblem };

type Algorithm = 'A' | 'B' | 'D' | 'E' | 'F' | 'G' | 'X';

/** Weights over the 18 padded digits (bank 2, branch 4, base 8, suffix 4) and the modulus. */
const WEIGHTS: Record<Algorithm, { weights: readonly number[]; modulus: number; digitSum: boolean }> = {
  A: { weights: [0, 0, 6, 3, 7, 9, 0, 0, 10, 5, 8, 4, 2, 1, 0, 0, 0, 0], modulus: 11, digitSum: false },
  B: { weights: [0, 0, 0, 0, 0, 0, 0, 0, 10, 5, 8, 4, 2, 1, 0, 0, 0, 0], modulus: 11, digitSum: false },
  D: { weights: [0, 0, 0, 0, 0, 0, 0, 7, 6, 5, 4, 3, 2, 1, 0, 0, 0, 0], modulus: 11, digitSum: false },
  E: { weights: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 4, 3, 2, 0, 0, 0, 1], modulus: 11, digitSum: true },
  F: { weights: [0, 0, 0, 0, 0, 0, 0, 1, 7, 3, 1, 7, 3, 1, 0, 0, 0, 0], modulus: 10, digitSum: false },
  G: { weights: [0, 0, 0, 0, 0, 0, 0, 1, 3, 7, 1, 3, 7, 1, 0, 3, 7, 1], modulus: 10, digitSum: true },
  X: { weights: new Array<number>(18).fill(0), modulus: 1, digitSum: false },
};

/** 'AB': A for a base below 990000, B from there on. */
type BankAlgorithm = Algorithm | 'AB';

/**
 * The banks and their branch ranges (inclusive), as the 2020 specification lists them. Data, so a
 * new allocation is one line.
 */
export const NZ_BANKS: Readonly<Record<string, { algorithm: BankAlgorithm; branches: readonly (readonly [number, number])[] }>> = {
  '01': { algorithm: 'AB', branches: [[1, 999], [1100, 1199], [1800, 1899]] },
  '02': { algorithm: 'AB', branches: [[1, 999], [1200, 1299]] },
  '03': { algorithm: 'AB', branches: [[1, 999], [1300, 1399], [1500, 1599], [1700, 1799], [1900, 1999], [7350, 7399]] },
  '04': { algorithm: 'AB', branches: [[2020, 2024]] },
  '06': { algorithm: 'AB', branches: [[1, 999], [1400, 1499]] },
  '08': { algorithm: 'D', branches: [[6500, 6599]] },
  '09': { algorithm: 'E', branches: [[0, 0]] },
  '10': { algorithm: 'AB', branches: [[5165, 5169]] },
  '11': { algorithm: 'AB', branches: [[5000, 6499], [6600, 8999]] },
  '12': { algorithm: 'AB', branches: [[3000, 3299], [3400, 3499], [3600, 3699]] },
  '13': { algorithm: 'AB', branches: [[4900, 4999]] },
  '14': { algorithm: 'AB', branches: [[4700, 4799]] },
  '15': { algorithm: 'AB', branches: [[3900, 3999]] },
  '16': { algorithm: 'AB', branches: [[4400, 4499]] },
  '17': { algorithm: 'AB', branches: [[3300, 3399]] },
  '18': { algorithm: 'AB', branches: [[3500, 3599]] },
  '19': { algorithm: 'AB', branches: [[4600, 4649]] },
  '20': { algorithm: 'AB', branches: [[4100, 4199]] },
  '21': { algorithm: 'AB', branches: [[4800, 4899]] },
  '22': { algorithm: 'AB', branches: [[4000, 4049]] },
  '23': { algorithm: 'AB', branches: [[3700, 3799]] },
  '24': { algorithm: 'AB', branches: [[4300, 4349]] },
  '25': { algorithm: 'F', branches: [[2500, 2599]] },
  '26': { algorithm: 'G', branches: [[2600, 2699]] },
  '27': { algorithm: 'AB', branches: [[3800, 3849]] },
  '28': { algorithm: 'G', branches: [[2100, 2149]] },
  '29': { algorithm: 'G', branches: [[2150, 2299]] },
  '30': { algorithm: 'AB', branches: [[2900, 2949]] },
  '31': { algorithm: 'X', branches: [[2800, 2849]] },
  '33': { algorithm: 'F', branches: [[6700, 6799]] },
  '35': { algorithm: 'AB', branches: [[2400, 2499]] },
  '38': { algorithm: 'AB', branches: [[9000, 9499]] },
};

const MAX_DIGITS = { bank: 2, branch: 4, base: 8, suffix: 4 } as const;

/**
 * The four parts of what was typed, or null. With separators (any non-digit: '-', spaces, '.')
 * there must be four groups of digits, none longer than its part. Without, only the lengths that
 * split one way are taken: 15 (2-4-7-2), 16 (2-4-7-3) and 18 (2-4-8-4) digits.
 */
export function parseBankAccount(input: string): BankAccountParts | null {
  const groups = input.trim().split(/\D+/).filter((g) => g !== '');
  if (groups.length === 4) {
    const [bank, branch, base, suffix] = groups as [string, string, string, string];
    if (bank.length > MAX_DIGITS.bank || branch.length > MAX_DIGITS.branch || base.length > MAX_DIGITS.base || suffix.length > MAX_DIGITS.suffix) return null;
    return { bank, branch, base, suffix };
  }
  if (groups.length !== 1) return null;
  const d = groups[0]!;
  const cut = (baseLength: number) => ({ bank: d.slice(0, 2), branch: d.slice(2, 6), base: d.slice(6, 6 + baseLength), suffix: d.slice(6 + baseLength) });
  if (d.length === 15 || d.length === 16) return cut(7);
  if (d.length === 18) return cut(8);
  return null;
}

const pad = (s: string, n: number) => s.padStart(n, '0');

/** The weighted sum the modulus is taken of, for `algorithm` over the padded digits. */
export function bankAccountWeightedSum(parts: BankAccountParts, algorithm: Algorithm): number {
  const digits = pad(parts.bank, 2) + pad(parts.branch, 4) + pad(parts.base, 8) + pad(parts.suffix, 4);
  const { weights, digitSum } = WEIGHTS[algorithm];
  let total = 0;
  for (let i = 0; i < 18; i++) {
    let p = Number(digits[i]) * weights[i]!;
    if (digitSum) {
      p = Math.floor(p / 10) + (p % 10);
      p = Math.floor(p / 10) + (p % 10);
    }
    total += p;
  }
  return total;
}

/** The algorithm that checks this bank's numbers (A or B picked by the base), or null for an unknown bank. */
export function bankAccountAlgorithm(parts: BankAccountParts): Algorithm | null {
  const entry = NZ_BANKS[pad(parts.bank, 2)];
  if (!entry) return null;
  if (entry.algorithm !== 'AB') return entry.algorithm;
  return Number(parts.base) < 990_000 ? 'A' : 'B';
}

/**
 * The usual way of writing the number: `12-3456-0123456-00`. The base takes 7 digits (8 only when
 * it needs them), the suffix 2 (3 or 4 only when it needs them, or when typed with 3, as some
 * banks print it).
 */
export function formatBankAccount(parts: BankAccountParts): string {
  const base = pad(String(Number(parts.base)), 7);
  const suffixValue = String(Number(parts.suffix));
  const suffix = pad(suffixValue, Math.max(2, Math.min(parts.suffix.length, 3)));
  return `${pad(parts.bank, 2)}-${pad(parts.branch, 4)}-${base}-${suffix}`;
}

/** Checks a typed bank account number: its form, the bank, the branch range and the check digits. */
export function checkBankAccount(input: string): BankAccountCheck {
  const parts = parseBankAccount(input);
  if (!parts) return { valid: false, reason: 'format' };
  const entry = NZ_BANKS[pad(parts.bank, 2)];
  if (!entry) return { valid: false, reason: 'bank' };
  const branch = Number(parts.branch);
  if (!entry.branches.some(([lo, hi]) => branch >= lo && branch <= hi)) return { valid: false, reason: 'branch' };
  const algorithm = bankAccountAlgorithm(parts)!;
  if (bankAccountWeightedSum(parts, algorithm) % WEIGHTS[algorithm].modulus !== 0) return { valid: false, reason: 'checksum' };
  return { valid: true, parts, formatted: formatBankAccount(parts) };
}

/** What the tradie is told, by the field, for each problem. */
export const BANK_ACCOUNT_MESSAGES: Record<BankAccountProblem, string> = {
  format: 'Enter the bank account number in four parts, like 12-3456-0123456-00 (bank, branch, account, suffix).',
  bank: "This bank number isn't one we know. Please check the first two digits, or keep it if your bank gave it to you.",
  branch: "This branch isn't one we know for that bank. Please check the number, or keep it if your bank gave it to you.",
  checksum: "This bank account number doesn't add up — one digit is probably wrong. Please check it against your bank statement.",
};
