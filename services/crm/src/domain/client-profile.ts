import {
  BUSINESS_TYPES,
  CLIENT_PLACEHOLDERS,
  CLIENT_PROFILE_MESSAGES as M,
  isPhoneNumber,
  type BusinessType,
  type ClientProfileBody,
} from '@countinghouse/proto';

export interface ProfileChanges {
  companyName?: string;
  contactName?: string;
  contactPhone?: string | null;
  businessType?: BusinessType;
  employeesCount?: number;
}
export interface FieldError {
  path: string;
  message: string;
}

const MAX_NAME = 200;
const MAX_EMPLOYEES = 1_000_000;

/**
 * Check a client's business profile edit field by field: the changes to store (trimmed), or a clear
 * message for each field that cannot be saved. Nothing is written unless every field is valid.
 */
export function checkProfile(body: ClientProfileBody): { changes: ProfileChanges; errors: FieldError[] } {
  const changes: ProfileChanges = {};
  const errors: FieldError[] = [];
  const fail = (path: string, message: string) => errors.push({ path, message });

  if (body.company_name !== undefined) {
    const v = body.company_name.trim();
    if (!v) fail('company_name', M.companyNameRequired);
    else if (v.length > MAX_NAME) fail('company_name', M.companyNameTooLong);
    else if (v === CLIENT_PLACEHOLDERS.companyName) fail('company_name', M.companyNamePlaceholder);
    else changes.companyName = v;
  }
  if (body.contact_name !== undefined) {
    const v = body.contact_name.trim();
    if (!v) fail('contact_name', M.contactNameRequired);
    else if (v.length > MAX_NAME) fail('contact_name', M.contactNameTooLong);
    else if (v === CLIENT_PLACEHOLDERS.contactName) fail('contact_name', M.contactNamePlaceholder);
    else changes.contactName = v;
  }
  if (body.contact_phone !== undefined) {
    const v = body.contact_phone?.trim() ?? '';
    if (!v) changes.contactPhone = null;
    else if (!isPhoneNumber(v)) fail('contact_phone', M.phoneInvalid);
    else changes.contactPhone = v;
  }
  if (body.business_type !== undefined) {
    if ((BUSINESS_TYPES as readonly string[]).includes(body.business_type)) changes.businessType = body.business_type as BusinessType;
    else fail('business_type', M.businessTypeInvalid);
  }
  if (body.employees_count !== undefined) {
    const n = body.employees_count;
    if (Number.isInteger(n) && n >= 0 && n <= MAX_EMPLOYEES) changes.employeesCount = n;
    else fail('employees_count', M.employeesInvalid);
  }
  return { changes, errors };
}
