import { fullFormats } from 'ajv-formats/dist/formats.js';
import { describe, expect, it } from 'vitest';
import { CONTACT_MESSAGES as M, EMAIL_PATTERN, emailProblem, isEmailAddress, isPhoneNumber, phoneProblem } from '../src/rules/contact.js';

describe('phoneProblem: the one phone rule', () => {
  it.each([
    // UK numbers as people write them (Ofcom numbering: 0 and 9 or 10 more digits)
    ['020 7946 0321', null],
    ['0161 496 0000', null],
    ['07700 900123', null],
    ['01632 960001', null],
    ['0800 123 456', null],
    ['  020 7946 0321  ', null],
    ['+44 7700 900123', null],
    ['+44 (0)20 7946 0999', null],
    ['+44 (0)161 496 0000', null],
    ['(020) 7946 0321', null],
    // international (E.164: + country code, at most 15 digits)
    ['+1 212 555 0100', null],
    ['+353 1 234 5678', null],
    // refused: characters, length, shape
    ['call me', M.phoneInvalid],
    ['12345', M.phoneInvalid],
    ['020-7946-0321', M.phoneInvalid],
    ['020.7946.0321', M.phoneInvalid],
    ['+44 (0) 20 7946 0321 ext 5', M.phoneInvalid],
    ['020 7946', M.phoneInvalid],
    ['7946 0321 12', M.phoneInvalid],
    ['+0 20 7946 0321', M.phoneInvalid],
    ['+44 20 7946 03211 11', M.phoneInvalid],
    ['', M.phoneInvalid],
    // the right characters with too few digits say so
    ['+( ) ( ) ( ) 1', M.phoneTooFewDigits],
    ['(01) (23) (45)', M.phoneTooFewDigits],
  ])('%j -> %j', (text, problem) => {
    expect(phoneProblem(text)).toBe(problem);
    expect(isPhoneNumber(text)).toBe(problem === null);
  });
});

describe('emailProblem: the one e-mail rule', () => {
  it.each([
    ['name@example.co.uk', null],
    ['first.last+tag@sub.example.com', null],
    ["o'brien@example.ie", null],
    ['  hello@ledger.example  ', null],
    ['not-an-email', M.emailInvalid],
    ['a@b', M.emailInvalid],
    ['a b@c.co.uk', M.emailInvalid],
    ['@example.com', M.emailInvalid],
    ['name@-example.com', M.emailInvalid],
    ['name@example..com', M.emailInvalid],
    ['', M.emailInvalid],
    [`${'a'.repeat(250)}@x.co`, M.emailInvalid],
  ])('%j -> %j', (text, problem) => {
    expect(emailProblem(text)).toBe(problem);
    expect(isEmailAddress(text)).toBe(problem === null);
  });

  it("is the pattern every route's `format: 'email'` is checked with (ajv-formats, full mode)", () => {
    const server = fullFormats.email as RegExp;
    expect(EMAIL_PATTERN.source).toBe(server.source);
    expect(EMAIL_PATTERN.flags).toBe(server.flags);
  });
});
