import {
  businessTypeProblem,
  companyNameProblem,
  contactNameProblem,
  employeesProblem,
  isBusinessType,
  profilePhoneProblem,
  type BusinessType,
  type ClientProfileBody,
} from '@countinghouse/proto';

export interface ProfileChanges {
  companyName?: string;
  contactName?: string;
  contactPhone?: string;
  businessType?: BusinessType;
  employeesCount?: number;
}
export interface FieldError {
  path: string;
  message: string;
}

/**
 * Check a client's business profile edit field by field: the changes to store (trimmed), or a clear
 * message for each field that cannot be saved. Nothing is written unless every field is valid. The
 * rules are proto's (proto/src/rules/client-profile.ts), the ones the client's form applies.
 */
export function checkProfile(body: ClientProfileBody): { changes: ProfileChanges; errors: FieldError[] } {
  const changes: ProfileChanges = {};
  const errors: FieldError[] = [];
  const check = (path: string, problem: string | null, set: () => void) => (problem ? errors.push({ path, message: problem }) : set());

  if (body.company_name !== undefined) {
    const v = body.company_name.trim();
    check('company_name', companyNameProblem(v), () => (changes.companyName = v));
  }
  if (body.contact_name !== undefined) {
    const v = body.contact_name.trim();
    check('contact_name', contactNameProblem(v), () => (changes.contactName = v));
  }
  if (body.contact_phone !== undefined) {
    // A client's own profile needs a phone (docs/decisions.md): '' and null are refused, not a clearing.
    const v = body.contact_phone?.trim() ?? '';
    check('contact_phone', profilePhoneProblem(v), () => (changes.contactPhone = v));
  }
  if (body.business_type !== undefined) {
    const v = body.business_type;
    // (businessTypeProblem is null exactly when isBusinessType holds: the guard only narrows v)
    check('business_type', businessTypeProblem(v), () => {
      if (isBusinessType(v)) changes.businessType = v;
    });
  }
  if (body.employees_count !== undefined) {
    const n = body.employees_count;
    check('employees_count', employeesProblem(n), () => (changes.employeesCount = n));
  }
  return { changes, errors };
}
