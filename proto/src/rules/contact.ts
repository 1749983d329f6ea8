// The one phone rule and the one e-mail rule (issue 17.3). The server and the forms call these same
// functions, so both say the same thing about the same text. Browser-safe, no TypeBox.
import { EMAIL_MAX, PHONE_TYPED_MAX, PHONE_TYPED_MIN } from './limits.js';

export const CONTACT_MESSAGES = {
  phoneInvalid: 'Enter a phone number we can call, such as 020 7946 0000 or +44 7700 900123.',
  phoneTooFewDigits: 'The phone number needs at least 7 digits.',
  emailInvalid: 'Enter a valid e-mail address, like name@example.co.uk.',
} as const;

// What a person may type: digits, spaces, + and brackets (UK numbers are written with spaces; a dash
// or a dot is refused rather than guessed at, so what is shown on the site is what was checked).
const PHONE_CHARACTERS = /^[0-9 +()]+$/;
// After spaces and brackets are removed (and the "(0)" of "+44 (0)20…"): a UK number, 0 then 9 or 10
// digits (Ofcom's National Telephone Numbering Plan: 01/02/03/07/08 numbers are 10 or 11 digits in
// all, a few 01 numbers 10), the same after +44, or an international one (ITU-T E.164: + and a
// country code not starting with 0, at most 15 digits; +44 only in the UK's own shape).
const PHONE_SHAPE = /^(?:0\d{9,10}|\+44\d{9,10}|\+(?!44)[1-9]\d{7,14})$/;

/** Why `text` is not a phone number we can call, or null when it is one. */
export function phoneProblem(text: string): string | null {
  const p = text.trim();
  if (p.length < PHONE_TYPED_MIN || p.length > PHONE_TYPED_MAX || !PHONE_CHARACTERS.test(p)) return CONTACT_MESSAGES.phoneInvalid;
  if ((p.match(/[0-9]/g) ?? []).length < 7) return CONTACT_MESSAGES.phoneTooFewDigits;
  const compact = p.replace(/^\+44\s*\(0\)/, '+44').replace(/[\s()]/g, '');
  return PHONE_SHAPE.test(compact) ? null : CONTACT_MESSAGES.phoneInvalid;
}

/** True when `text` is a phone number we can call (phoneProblem finds nothing). */
export function isPhoneNumber(text: string): boolean {
  return phoneProblem(text) === null;
}

/**
 * The e-mail rule: ajv-formats' "email" format in its full mode, the one every route schema with
 * `format: 'email'` is checked against (proto/test/contact.test.ts proves they are the same). A dotted
 * domain is required, so `a@b` is refused.
 */
export const EMAIL_PATTERN =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

/** Why `text` is not an e-mail address, or null when it is one. */
export function emailProblem(text: string): string | null {
  const e = text.trim();
  return e.length < 3 || e.length > EMAIL_MAX || !EMAIL_PATTERN.test(e) ? CONTACT_MESSAGES.emailInvalid : null;
}

export function isEmailAddress(text: string): boolean {
  return emailProblem(text) === null;
}
