import { describe, expect, it } from 'vitest';
import {
  BUSINESS_TYPE_LABELS,
  businessTypeProblem,
  CLIENT_PLACEHOLDERS,
  CLIENT_PROFILE_MESSAGES as M,
  companyNameProblem,
  contactNameProblem,
  employeesProblem,
  profilePhoneProblem,
} from '../src/rules/client-profile.js';
import { BUSINESS_TYPES } from '../src/constants.js';
import { CONTACT_MESSAGES } from '../src/rules/contact.js';

describe('companyNameProblem / contactNameProblem', () => {
  it.each([
    ['Grace Growth Ltd', null, null],
    ['  Grace Growth Ltd  ', null, null],
    ['x'.repeat(200), null, null],
    ['', M.companyNameRequired, M.contactNameRequired],
    ['   ', M.companyNameRequired, M.contactNameRequired],
    ['x'.repeat(201), M.companyNameTooLong, M.contactNameTooLong],
    [CLIENT_PLACEHOLDERS.companyName, M.companyNamePlaceholder, null],
    [CLIENT_PLACEHOLDERS.contactName, null, M.contactNamePlaceholder],
    [` ${CLIENT_PLACEHOLDERS.companyName} `, M.companyNamePlaceholder, null],
  ])('%j -> %j / %j', (text, company, contact) => {
    expect(companyNameProblem(text)).toBe(company);
    expect(contactNameProblem(text)).toBe(contact);
  });
});

describe('profilePhoneProblem: required, then the one phone rule', () => {
  it.each([
    ['020 7946 0123', null],
    ['+44 7700 900123', null],
    ['', M.phoneRequired],
    ['   ', M.phoneRequired],
    [null, M.phoneRequired],
    ['call me', M.phoneInvalid],
    ['020 7946', M.phoneInvalid],
    ['+( ) ( ) ( ) 1', CONTACT_MESSAGES.phoneTooFewDigits],
  ])('%j -> %j', (text, problem) => {
    expect(profilePhoneProblem(text)).toBe(problem);
  });
});

describe('businessTypeProblem', () => {
  it.each([
    ['sole_trader', null],
    ['partnership', null],
    ['limited', null],
    ['llp', null],
    ['Sole trader', M.businessTypeInvalid],
    ['LLP', M.businessTypeInvalid],
    ['plc', M.businessTypeInvalid],
    [null, M.businessTypeInvalid],
    [3, M.businessTypeInvalid],
  ])('%j -> %j', (value, problem) => {
    expect(businessTypeProblem(value)).toBe(problem);
  });

  it('names every business type once, in sentence case', () => {
    expect(Object.keys(BUSINESS_TYPE_LABELS).sort()).toEqual([...BUSINESS_TYPES].sort());
    expect(BUSINESS_TYPE_LABELS.sole_trader).toBe('Sole trader');
    expect(BUSINESS_TYPE_LABELS.limited).toBe('Limited company');
  });
});

describe('employeesProblem', () => {
  it.each([
    [0, null],
    [3, null],
    [1_000_000, null],
    [-1, M.employeesInvalid],
    [1_000_001, M.employeesInvalid],
    [2.5, M.employeesInvalid],
    [Number.NaN, M.employeesInvalid],
    ['3', M.employeesInvalid],
    [null, M.employeesInvalid],
  ])('%j -> %j', (value, problem) => {
    expect(employeesProblem(value)).toBe(problem);
  });
});
