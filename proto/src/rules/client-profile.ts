// The business profile a client fills in (onboarding checklist) and PATCH /api/crm/clients/mine:
// each field's rule, once. crm's checkProfile and the client's form both call these (issue 17.3).
import { BUSINESS_TYPES, type BusinessType } from '../constants.js';
import { CONTACT_MESSAGES, phoneProblem } from './contact.js';
import { EMPLOYEES_MAX, formatCount, NAME_MAX } from './limits.js';

/**
 * The names a client record starts with when a payment creates it (crm's upsert from billing); the
 * client's business profile replaces them (onboarding checklist, docs/decisions.md).
 */
export const CLIENT_PLACEHOLDERS = { companyName: 'New client business', contactName: 'New client' } as const;

/** How each business type is named to people, everywhere (sentence case, as GOV.UK writes them). */
export const BUSINESS_TYPE_LABELS: Record<BusinessType, string> = {
  sole_trader: 'Sole trader',
  partnership: 'Partnership',
  limited: 'Limited company',
  llp: 'Limited liability partnership (LLP)',
};

/** What the business profile form and PATCH /clients/mine say about a field that cannot be saved. */
export const CLIENT_PROFILE_MESSAGES = {
  companyNameRequired: 'Enter your business name.',
  companyNameTooLong: `Your business name can be at most ${NAME_MAX} characters.`,
  companyNamePlaceholder: 'Enter your own business name, not the placeholder we started with.',
  contactNameRequired: 'Enter the name of the person we should talk to.',
  contactNameTooLong: `The contact name can be at most ${NAME_MAX} characters.`,
  contactNamePlaceholder: 'Enter a real contact name, not the placeholder we started with.',
  phoneRequired: 'Enter a phone number so your accountant can call you.',
  phoneInvalid: CONTACT_MESSAGES.phoneInvalid,
  businessTypeInvalid: 'Choose sole trader, partnership, limited company or limited liability partnership.',
  employeesInvalid: `Enter the number of employees as a whole number from 0 to ${formatCount(EMPLOYEES_MAX)}.`,
  noRecord: 'You do not have a client record yet: choose a package first.',
  saved: 'Your business profile is saved.',
} as const;
const M = CLIENT_PROFILE_MESSAGES;

/** Business name: required, at most NAME_MAX characters, not the placeholder. */
export function companyNameProblem(text: string): string | null {
  const v = text.trim();
  if (!v) return M.companyNameRequired;
  if (v.length > NAME_MAX) return M.companyNameTooLong;
  if (v === CLIENT_PLACEHOLDERS.companyName) return M.companyNamePlaceholder;
  return null;
}

/** Contact name: required, at most NAME_MAX characters, not the placeholder. */
export function contactNameProblem(text: string): string | null {
  const v = text.trim();
  if (!v) return M.contactNameRequired;
  if (v.length > NAME_MAX) return M.contactNameTooLong;
  if (v === CLIENT_PLACEHOLDERS.contactName) return M.contactNamePlaceholder;
  return null;
}

/** Phone: required on the client's own profile (docs/decisions.md), then the one phone rule. */
export function profilePhoneProblem(text: string | null): string | null {
  const v = (text ?? '').trim();
  if (!v) return M.phoneRequired;
  return phoneProblem(v);
}

export function isBusinessType(value: unknown): value is BusinessType {
  return typeof value === 'string' && BUSINESS_TYPES.some((t) => t === value);
}

export function businessTypeProblem(value: unknown): string | null {
  return isBusinessType(value) ? null : M.businessTypeInvalid;
}

/** Employees: a whole number from 0 to EMPLOYEES_MAX. */
export function employeesProblem(value: unknown): string | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= EMPLOYEES_MAX ? null : M.employeesInvalid;
}
