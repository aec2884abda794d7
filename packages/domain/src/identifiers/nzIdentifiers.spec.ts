import { describe, expect, it } from 'vitest';
import { checkIrdNumber, checkNzbn, formatIrdNumber, GST_NUMBER_WARNING, identifierWarnings, NZBN_WARNING } from './nzIdentifiers.ts';

describe('IRD / GST numbers (check-digit vectors)', () => {
  it.each([
    ['I1', '49091850', true], ['I2', '35901981', true], ['I3', '49098576', true], ['I4', '136410132', true],
    ['I5', '136410133', false], ['I6', '9125568', false], ['I7', '4909185-0', true], ['I8', 'NZ 49-098-576', true],
    ['I9', '49-091-850', true], ['I10', '136-410-132', true], ['I11', '49 091 850', true], ['I12', '49091851', false],
    ['I13', '1234567A', false], ['I14', '4909185A', false], ['I15', '12345', false], ['I16', '1234567', false],
    ['I17', '1234567890', false], ['I18', '123456789012', false], ['I19', '150000001', false], ['I20', '09999999', false],
    ['I21', '00000000', false], ['I22', '9999999', false], ['I23', '10000009', true], ['I24', '149999995', true],
    ['I25', '10000050', false], ['I26', '10000051', false],
  ])('%s %s → %s', (_id, input, valid) => {
    expect(checkIrdNumber(input).valid).toBe(valid);
  });

  it('formats the compact digits for display', () => {
    expect(formatIrdNumber('49098576')).toBe('49-098-576');
    expect(formatIrdNumber('136410132')).toBe('136-410-132');
  });
});

describe('NZBN (check-digit vectors)', () => {
  it.each([
    ['N1', '9429039501974', true], ['N2', '9429039501976', false], ['N3', '9429041234563', true], ['N4', '9429041234560', false],
    ['N5', '9429046393920', true], ['N6', '9429050294954', true], ['N7', '9429-0412-34563', true], ['N8', '9429 0412 34563', true],
    ['N9', '9329041234567', false], ['N10', '942904123456', false], ['N11', '94290412345638', false], ['N12', '942904123456A', false],
    ['N13', '942904!123456', false], ['N14', 'AR1234567', false], ['N15', '171003406287654', false], ['N16', '1710034062', false],
    ['N17', '9429041234567', false], ['N18', '7300011000017', false],
  ])('%s %s → %s', (_id, input, valid) => {
    expect(checkNzbn(input).valid).toBe(valid);
  });
});

describe('soft warnings, never blocks', () => {
  it('warns on a bad GST number and a bad NZBN, not on a company number or blanks', () => {
    expect(identifierWarnings({ gst_number: '49091851' })).toEqual([{ field: 'gst_number', message: GST_NUMBER_WARNING }]);
    expect(identifierWarnings({ company_number: '9429041234560' })).toEqual([{ field: 'company_number', message: NZBN_WARNING }]);
    expect(identifierWarnings({ company_number: '1234567', gst_number: '' })).toEqual([]);
    expect(identifierWarnings({ nzbn: '123', gst_number: '49-091-850' })).toEqual([{ field: 'nzbn', message: NZBN_WARNING }]);
  });
});
