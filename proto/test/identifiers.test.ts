import { describe, expect, it } from 'vitest';
import {
  IDENTIFIER_MESSAGES as M,
  validateAccountsOfficeReference,
  validateCompanyNumber,
  validateNino,
  validatePayeReference,
  validateSicCode,
  validateUtr,
  validateVatNumber,
  workBucket,
  workHorizon,
  clientVisibility,
  canSeeClient,
  homeFor,
  type IdentifierResult,
} from '../src/index.js';

// Examples checked 2026-11 against HMRC's published reference checker (UTR 2234567890, VAT 101747696,
// Accounts Office 123PW12345678) and HMRC's NINO rules (NIM39110).
type Row = [input: string, expected: IdentifierResult];
const ok = (value: string) => ({ ok: true as const, value });
const bad = (message: string) => ({ ok: false as const, message });

describe('UTR (10 digits, modulus-11 check digit first)', () => {
  it.each<Row>([
    ['2234567890', ok('2234567890')],
    ['22345 67890', ok('2234567890')],
    ['K2234567890', ok('2234567890')],
    ['2234567890K', ok('2234567890')],
    ['1111111111', ok('1111111111')],
    ['1234567890', bad(M.utrCheck)],
    ['3234567890', bad(M.utrCheck)],
    ['223456789', bad(M.utrFormat)],
    ['22345678901', bad(M.utrFormat)],
    ['22345A7890', bad(M.utrFormat)],
    ['', bad(M.utrFormat)],
  ])('%s', (input, expected) => expect(validateUtr(input)).toEqual(expected));
});

describe('VAT registration number (9 digits, mod 97 or the 9755 variant)', () => {
  it.each<Row>([
    ['101747696', ok('101747696')],
    ['GB101747696', ok('101747696')],
    ['GB 123 4567 82', ok('123456782')],
    // 9755: 1·8+2·7+3·6+4·5+5·4+6·3+7·2 = 112; 112 + 55 + 27 = 194 = 2 × 97.
    ['123456727', ok('123456727')],
    ['101747697', bad(M.vatCheck)],
    ['123456789', bad(M.vatCheck)],
    ['12345678', bad(M.vatFormat)],
    ['GB12345678901', bad(M.vatFormat)],
    ['IE1234567X', bad(M.vatFormat)],
  ])('%s', (input, expected) => expect(validateVatNumber(input)).toEqual(expected));
});

describe('National Insurance number', () => {
  it.each<Row>([
    ['AB 12 34 56 C', ok('AB123456C')],
    // gov.uk's own example prefix is never issued.
    ['QQ123456C', bad(M.ninoPrefix)],
    ['ab123456a', ok('AB123456A')],
    ['AB123456', bad(M.ninoFormat)],
    ['AB123456E', bad(M.ninoFormat)],
    ['A1234567C', bad(M.ninoFormat)],
    ['DA123456A', bad(M.ninoPrefix)],
    ['AO123456A', bad(M.ninoPrefix)],
    ['QV123456A', bad(M.ninoPrefix)],
    ['GB123456A', bad(M.ninoPrefix)],
    ['NK123456A', bad(M.ninoPrefix)],
    ['ZZ123456A', bad(M.ninoPrefix)],
  ])('%s', (input, expected) => expect(validateNino(input)).toEqual(expected));
});

describe('PAYE employer reference and Accounts Office reference', () => {
  it.each<Row>([
    ['123/AB45678', ok('123/AB45678')],
    ['123/ab45678', ok('123/AB45678')],
    ['123AB45678', bad(M.payeFormat)],
    ['12/AB45678', bad(M.payeFormat)],
    ['123/', bad(M.payeFormat)],
  ])('PAYE %s', (input, expected) => expect(validatePayeReference(input)).toEqual(expected));
  it.each<Row>([
    ['123PW12345678', ok('123PW12345678')],
    ['123 PW 1234 5678', ok('123PW12345678')],
    ['123PX12345678', bad(M.accountsOfficeCheck)],
    ['123PX00123456', bad(M.accountsOfficeCheck)],
    ['123QW12345678', bad(M.accountsOfficeFormat)],
    ['123PW1234567', bad(M.accountsOfficeFormat)],
  ])('Accounts Office %s', (input, expected) => expect(validateAccountsOfficeReference(input)).toEqual(expected));
});

describe('company number and SIC code', () => {
  it.each<Row>([
    ['01234567', ok('01234567')],
    ['1234567', ok('01234567')],
    ['SC123456', ok('SC123456')],
    ['oc 123456', ok('OC123456')],
    ['SC12345', bad(M.companyNumberFormat)],
    ['123456789', bad(M.companyNumberFormat)],
  ])('company %s', (input, expected) => expect(validateCompanyNumber(input)).toEqual(expected));
  it('SIC codes are 5 digits', () => {
    expect(validateSicCode('62020')).toEqual(ok('62020'));
    expect(validateSicCode('6202')).toEqual(bad(M.sicFormat));
  });
});

describe('My work buckets (ISO weeks from Monday)', () => {
  // Thursday 26 November 2026: this week runs to Sunday 29 November, next week to Sunday 6 December.
  const today = '2026-11-26';
  it.each([
    ['2026-11-25', 'overdue'],
    ['2025-01-31', 'overdue'],
    ['2026-11-26', 'this_week'],
    ['2026-11-29', 'this_week'],
    ['2026-11-30', 'next_week'],
    ['2026-12-06', 'next_week'],
    ['2026-12-07', null],
  ])('%s is %s', (due, bucket) => expect(workBucket(due, today)).toBe(bucket));
  it('the horizon is Sunday of next week, also from a Sunday', () => {
    expect(workHorizon(today)).toBe('2026-12-06');
    expect(workHorizon('2026-11-29')).toBe('2026-12-06');
  });
});

describe('who sees which clients, and where /login goes', () => {
  it.each([
    [['admin'], { all: true }],
    [['manager', 'mlro'], { all: true }],
    [['staff'], { all: true }],
    [['accountant'], { all: false, accountantId: 'u1' }],
    [['client'], null],
    [['mlro'], null],
  ])('%j', (roles, expected) => expect(clientVisibility({ id: 'u1', roles, kind: 'user' })).toEqual(expected));
  it('an accountant sees only their clients', () => {
    const v = clientVisibility({ id: 'u1', roles: ['accountant'], kind: 'user' });
    expect(canSeeClient(v, 'u1')).toBe(true);
    expect(canSeeClient(v, 'u2')).toBe(false);
    expect(canSeeClient(v, null)).toBe(false);
    expect(canSeeClient(null, 'u1')).toBe(false);
  });
  it('staff-side people go to My work, clients to their dashboard', () => {
    expect(homeFor(['accountant'])).toBe('/work');
    expect(homeFor(['staff'])).toBe('/work');
    expect(homeFor(['client'])).toBe('/dashboard');
    expect(homeFor([])).toBe('/dashboard');
  });
});
