import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bankAccountAlgorithm, bankAccountWeightedSum, checkBankAccount, formatBankAccount, NZ_BANKS, parseBankAccount, type BankAccountParts } from './nzBankAccount.ts';

// The published worked examples and vectors (with the weighted sum where it is given).
describe('NZ bank account numbers (published vectors)', () => {
  it.each([
    ['K1', '01-902-0068389-00', true],
    ['K2', '08-6523-1954512-001', true],
    ['K3', '26-2600-0320871-032', true],
    ['K5', '01-902-0998384-00', true],
    ['K6', '09-0-37331-00', true],
    ['K7', '25-2545-3153624-00', true],
    ['K8', '01-0242-0100194-00', true],
    ['K9', '01-0242-0100195-00', false],
    ['K10', '01-9999-0100197-00', false],
    ['K11', '01-902-0068388-00', false],
    ['K12', '123478', false],
    ['K13', '03-0001-0016527-000', false],
    ['K14', '12-3140-0171323-50', true],
    ['K15', '12-3141-325080-00', true],
    ['K16', '04-2021-0095861-15', true],
    ['K17', '01-9999-12312311-111', false],
    ['K18', '01-902', false],
    ['K19', '06-0501-0036001-00', true],
    ['K20', '12-3148-0075985-51', true],
    ['K21', '03-1598-0017097-25', true],
    ['K22', '01-0819-0454289-00', true],
    ['K23', '12-3041-1244961-11', true],
    ['K24', '02-0601-0113320-02', false],
    ['K25', '06-0833-0124223-05', false],
    ['K26', '03-0854-0594325-25', false],
    ['K27', '123450009900080000', true],
    ['K28', '123450009900070000', false],
    ['K29', '086523019545130001', false],
    ['K30', '09-0000-00000000-0000', true],
    ['K31', '09-0000-11111111-1111', false],
    ['K32', '25-2500-12345677-0000', true],
    ['K33', '25-2500-12345678-0000', false],
    ['K34', '33-6700-12345677-0000', true],
    ['K35', '262600003208710033', false],
    ['K36', '28-2149-0320871-0032', true],
    ['K37', '29-2150-0320871-0032', true],
    ['K38', '31-2800-12345678-0000', true],
    ['K39', '31-1000-12345678-0000', false],
    ['K40', '01-0001-00000000-0000', false],
    ['K41', '04-0001-00000000-0000', false],
    ['K42', '01-0000-00000000-0000', false],
    ['K43', '08-6523-1954512-01', true],
    ['K44', '25-2500-110000-01', true],
    ['K45', '31-2800-0320871-032', true],
    ['K46', '07-902-0068389-00', false],
    ['K47', '26-3333-0320871-032', false],
    ['K48', '00-0000-0000000-00', false],
    // Where libraries disagree with the published rule, the rule wins.
    ['K49', '01-902-910100-00', false],
    ['K50', '09-0000-1954510-01', false],
    ['K51', '26-2600-0900000-001', true],
    ['K52', '26-2600-9000000-092', true],
    ['K53', '09-0000-0000061-00', true],
    ['K54', '38-9000-0392156-03', true],
    ['K55', '02-1246-0812417-031', true],
    ['K56', '11-7892-0111532-01', true],
    ['K57', '15-3947-0487353-26', true],
    ['K58', '01 0535 0089638-28', true],
  ])('%s %s → %s', (_id, input, valid) => {
    expect(checkBankAccount(input).valid).toBe(valid);
  });

  it('adds up to the sums of the worked examples (A 176, D 121, G 30; E 22 with the digits summed twice)', () => {
    const sum = (s: string) => {
      const parts = parseBankAccount(s)!;
      return bankAccountWeightedSum(parts, bankAccountAlgorithm(parts)!);
    };
    expect(sum('01-902-0068389-00')).toBe(176);
    expect(sum('08-6523-1954512-001')).toBe(121);
    expect(sum('26-2600-0320871-032')).toBe(30);
    expect(sum('09-0-37331-00')).toBe(22);
    expect(sum('12-3041-1244961-11')).toBe(121);
  });

  it('names what is wrong: the form, the bank, the branch or a digit', () => {
    expect(checkBankAccount('12345')).toEqual({ valid: false, reason: 'format' });
    expect(checkBankAccount('01-902')).toEqual({ valid: false, reason: 'format' });
    expect(checkBankAccount('01902006838900')).toEqual({ valid: false, reason: 'format' }); // 14 digits split more than one way
    expect(checkBankAccount('07-902-0068389-00')).toEqual({ valid: false, reason: 'bank' });
    expect(checkBankAccount('01-9999-0100197-00')).toEqual({ valid: false, reason: 'branch' });
    expect(checkBankAccount('01-0242-0100195-00')).toEqual({ valid: false, reason: 'checksum' });
  });

  it('writes a valid number the usual way', () => {
    const formatted = (s: string) => {
      const c = checkBankAccount(s);
      return c.valid ? c.formatted : null;
    };
    expect(formatted('12-3140-0171323-50')).toBe('12-3140-0171323-50');
    expect(formatted('123140017132350')).toBe('12-3140-0171323-50');
    expect(formatted('01-902-0068389-00')).toBe('01-0902-0068389-00');
    expect(formatted('12 3141 325080 00')).toBe('12-3141-0325080-00');
    expect(formatted('08-6523-1954512-001')).toBe('08-6523-1954512-001');
    expect(formatted('28-2149-0320871-0032')).toBe('28-2149-0320871-032');
    expect(formatted('25-2500-12345677-0000')).toBe('25-2500-12345677-000');
  });
});

// An independent statement of algorithm A (weights written out position by position) for the property tests.
function oracleAlgorithmA(bank: string, branch: string, base: string, suffix: string): number {
  const b = branch.padStart(4, '0');
  const a = base.padStart(8, '0');
  void bank;
  void suffix;
  return 6 * +b[0]! + 3 * +b[1]! + 7 * +b[2]! + 9 * +b[3]! + 10 * +a[2]! + 5 * +a[3]! + 8 * +a[4]! + 4 * +a[5]! + 2 * +a[6]! + +a[7]!;
}

const digits = (n: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((d) => d.join(''));

/** A known bank with a branch inside one of its ranges. */
const knownBankBranch = fc.constantFrom(...Object.entries(NZ_BANKS)).chain(([bank, entry]) =>
  fc.constantFrom(...entry.branches).chain(([lo, hi]) => fc.integer({ min: lo, max: hi }).map((branch) => ({ bank, branch: String(branch).padStart(4, '0') }))),
);

describe('NZ bank account numbers (properties)', () => {
  it('algorithm A agrees with a position-by-position statement of its weights', () => {
    fc.assert(
      fc.property(digits(4), digits(7), digits(2), (branch, base, suffix) => {
        const parts: BankAccountParts = { bank: '01', branch, base, suffix };
        expect(bankAccountWeightedSum(parts, 'A')).toBe(oracleAlgorithmA('01', branch, base, suffix));
      }),
    );
  });

  it('a valid number, formatted and read again, is the same valid number (the format is a fixed point)', () => {
    fc.assert(
      fc.property(knownBankBranch, digits(7), digits(2), ({ bank, branch }, base, suffix) => {
        const c = checkBankAccount(`${bank}-${branch}-${base}-${suffix}`);
        if (!c.valid) return;
        const again = checkBankAccount(c.formatted);
        expect(again.valid).toBe(true);
        if (again.valid) expect(again.formatted).toBe(c.formatted);
        // Without separators, the 15 digits of the usual format read the same.
        expect(checkBankAccount(c.formatted.replace(/-/g, ''))).toEqual(again);
      }),
    );
  });

  it('for the mod-11 banks, changing one digit of a valid base is always caught', () => {
    fc.assert(
      fc.property(knownBankBranch, digits(7), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 9 }), ({ bank, branch }, base, position, delta) => {
        const parts: BankAccountParts = { bank, branch, base, suffix: '00' };
        const algorithm = bankAccountAlgorithm(parts);
        if (algorithm !== 'A' && algorithm !== 'D') return;
        // Make the base valid by choosing its last digit, if one does.
        const sumWithout = bankAccountWeightedSum({ ...parts, base: base.slice(0, 6) + '0' }, algorithm);
        const last = (11 - (sumWithout % 11)) % 11;
        fc.pre(last < 10);
        const valid = base.slice(0, 6) + String(last);
        fc.pre(bankAccountAlgorithm({ ...parts, base: valid }) === algorithm);
        expect(checkBankAccount(`${bank}-${branch}-${valid}-00`).valid).toBe(true);
        const d = (Number(valid[position]) + delta) % 10;
        const changed = valid.slice(0, position) + String(d) + valid.slice(position + 1);
        fc.pre(bankAccountAlgorithm({ ...parts, base: changed }) === algorithm);
        // Weights 5, 8, 4, 2, 1 (A) and 6, 5, 4, 3, 2, 1 (D) are all prime to 11, so one digit changed changes the remainder.
        expect(checkBankAccount(`${bank}-${branch}-${changed}-00`)).toEqual({ valid: false, reason: 'checksum' });
      }),
    );
  });

  it('a branch outside every range of its bank is refused, whatever the digits', () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(NZ_BANKS)), fc.integer({ min: 0, max: 9999 }), digits(7), digits(2), (bank, branch, base, suffix) => {
        const inRange = NZ_BANKS[bank]!.branches.some(([lo, hi]) => branch >= lo && branch <= hi);
        fc.pre(!inRange);
        expect(checkBankAccount(`${bank}-${String(branch).padStart(4, '0')}-${base}-${suffix}`)).toEqual({ valid: false, reason: 'branch' });
      }),
    );
  });

  it('anything that is not four groups of digits (or 15, 16 or 18 digits) is a format problem, never a throw', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (s) => {
        const c = checkBankAccount(s);
        if (c.valid) expect(c.formatted).toMatch(/^\d{2}-\d{4}-\d{7,8}-\d{2,4}$/);
      }),
    );
  });

  it('formatBankAccount pads the parts to 2, 4, 7 and 2 digits', () => {
    expect(formatBankAccount({ bank: '1', branch: '902', base: '68389', suffix: '0' })).toBe('01-0902-0068389-00');
  });
});
