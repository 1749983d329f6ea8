// TypeBox forms of the shared rules (issue 17.3), for route schemas.
import { Type } from '@sinclair/typebox';
import { EMAIL_MAX, EMPLOYEES_MAX, NAME_MAX, PHONE_STORED_MAX } from './limits.js';

/** An e-mail address: checked by ajv-formats' "email" (the same rule as EMAIL_PATTERN, proto/test/contact.test.ts). */
export const EmailAddress = () => Type.String({ format: 'email', minLength: 3, maxLength: EMAIL_MAX });
/** A name, company name or title: 1 to NAME_MAX characters. */
export const NameText = () => Type.String({ minLength: 1, maxLength: NAME_MAX });
/** A phone number kept as given (staff entry, imports): 1 to PHONE_STORED_MAX characters. */
export const StoredPhone = () => Type.String({ minLength: 1, maxLength: PHONE_STORED_MAX });
/** A number of employees: 0 to EMPLOYEES_MAX. */
export const EmployeesCount = () => Type.Integer({ minimum: 0, maximum: EMPLOYEES_MAX });
