// The identifiers a UK practice keeps for a client, each checked with its real format and, where HMRC
// publishes one, its check character. Pure and browser-safe: the client record's form and crm's
// service run the same rules (docs/decisions.md, decision 140).
//
// Sources (checked 2026-11):
// - UTR: 10 digits; the first is a modulus-11 check digit over the other nine, weights 6 7 8 9 10 5 4 3 2,
//   remainder mapped through 2 1 9 8 7 6 5 4 3 2 1 (HMRC's published reference checker). A Self
//   Assessment UTR may be written with a leading or trailing K.
// - VAT registration number: 9 digits (an optional GB prefix; the 3-digit branch suffix is not kept);
//   the first seven weighted 8..2, the last two the check: weighted sum + check ≡ 0 (mod 97), or, for
//   numbers issued from November 2009 ("9755"), weighted sum + 55 + check ≡ 0 (mod 97).
// - NINO: two prefix letters, six digits, suffix A-D. Neither prefix letter is D F I Q U V; the second
//   is not O; the prefixes BG GB KN NK NT TN ZZ are never issued (HMRC NIM39110).
// - PAYE employer reference: the 3-digit HMRC office number, '/', up to 10 letters and digits
//   (e.g. 123/AB45678); HMRC publishes no check character for it.
// - Accounts Office reference: 13 characters, 3 digits, P, a check letter, 8 digits (e.g. 123PW12345678);
//   the check letter is the modulus-23 remainder of the other characters weighted 9 10 11 12 · 8 7 6 5 4 3 2 1
//   (P counts 48), looked up in A B C D E F G H X J K L M N Y P Q R S T Z V W.
// - Company number: 8 characters, 8 digits (shorter numbers padded with zeros) or a 2-letter prefix
//   (SC, NI, OC, SO, NC, R0…) and 6 digits (Companies House).

export const IDENTIFIER_MESSAGES = {
  utrFormat: 'A UTR is 10 digits, e.g. 1234567890',
  utrCheck: 'This UTR is not valid: its check digit does not match. Check it against an HMRC letter',
  vatFormat: 'A VAT registration number is 9 digits, optionally starting GB, e.g. GB 123 4567 89',
  vatCheck: 'This VAT registration number is not valid: its check digits do not match',
  ninoFormat: 'A National Insurance number is 2 letters, 6 digits and A, B, C or D, e.g. AB 12 34 56 C',
  ninoPrefix: 'This National Insurance number has a prefix HMRC never issues',
  payeFormat: 'A PAYE employer reference is the 3-digit office number, / and up to 10 letters or digits, e.g. 123/AB45678',
  accountsOfficeFormat: 'An Accounts Office reference is 13 characters: 3 digits, P, a letter and 8 digits, e.g. 123PW12345678',
  accountsOfficeCheck: 'This Accounts Office reference is not valid: its check letter does not match',
  companyNumberFormat: 'A company number is 8 digits, or 2 letters and 6 digits, e.g. 01234567 or SC123456',
  sicFormat: 'A SIC code is 5 digits, e.g. 62020',
  yearEndFormat: 'Choose a valid year end (day and month)',
} as const;

export type IdentifierResult = { ok: true; value: string } | { ok: false; message: string };

const squash = (raw: string) => raw.toUpperCase().replace(/[\s-]+/g, '');

const UTR_WEIGHTS = [6, 7, 8, 9, 10, 5, 4, 3, 2];
const UTR_CHECK = [2, 1, 9, 8, 7, 6, 5, 4, 3, 2, 1];

/** A Unique Taxpayer Reference, stored as its 10 digits. */
export function validateUtr(raw: string): IdentifierResult {
  let s = squash(raw);
  if (s.startsWith('K')) s = s.slice(1);
  else if (s.endsWith('K')) s = s.slice(0, -1);
  if (!/^\d{10}$/.test(s)) return { ok: false, message: IDENTIFIER_MESSAGES.utrFormat };
  const sum = UTR_WEIGHTS.reduce((acc, w, i) => acc + w * Number(s[i + 1]), 0);
  if (UTR_CHECK[sum % 11] !== Number(s[0])) return { ok: false, message: IDENTIFIER_MESSAGES.utrCheck };
  return { ok: true, value: s };
}

/** A UK VAT registration number, stored as its 9 digits (no GB). */
export function validateVatNumber(raw: string): IdentifierResult {
  let s = squash(raw);
  if (s.startsWith('GB')) s = s.slice(2);
  if (!/^\d{9}$/.test(s)) return { ok: false, message: IDENTIFIER_MESSAGES.vatFormat };
  const sum = [8, 7, 6, 5, 4, 3, 2].reduce((acc, w, i) => acc + w * Number(s[i]), 0);
  const check = Number(s.slice(7));
  if ((sum + check) % 97 !== 0 && (sum + 55 + check) % 97 !== 0) return { ok: false, message: IDENTIFIER_MESSAGES.vatCheck };
  return { ok: true, value: s };
}

const NINO_BAD_PREFIXES = new Set(['BG', 'GB', 'KN', 'NK', 'NT', 'TN', 'ZZ']);

/** A National Insurance number, stored without spaces, e.g. QQ123456C. */
export function validateNino(raw: string): IdentifierResult {
  const s = squash(raw);
  if (!/^[A-Z]{2}\d{6}[A-D]$/.test(s)) return { ok: false, message: IDENTIFIER_MESSAGES.ninoFormat };
  const [a, b] = [s[0]!, s[1]!];
  if ('DFIQUV'.includes(a) || 'DFIQUVO'.includes(b) || NINO_BAD_PREFIXES.has(s.slice(0, 2)))
    return { ok: false, message: IDENTIFIER_MESSAGES.ninoPrefix };
  return { ok: true, value: s };
}

/** A PAYE employer reference, e.g. 123/AB45678. */
export function validatePayeReference(raw: string): IdentifierResult {
  const s = raw.toUpperCase().replace(/\s+/g, '');
  if (!/^\d{3}\/[A-Z0-9]{1,10}$/.test(s)) return { ok: false, message: IDENTIFIER_MESSAGES.payeFormat };
  return { ok: true, value: s };
}

const AO_WEIGHTS = [9, 10, 11, 12, 0, 8, 7, 6, 5, 4, 3, 2, 1];
const AO_LOOKUP = 'ABCDEFGHXJKLMNYPQRSTZVW';

/** An employer's Accounts Office reference (PAYE payments), e.g. 123PW12345678. */
export function validateAccountsOfficeReference(raw: string): IdentifierResult {
  const s = squash(raw);
  if (!/^\d{3}P[A-Z]\d{8}$/.test(s)) return { ok: false, message: IDENTIFIER_MESSAGES.accountsOfficeFormat };
  // 'P' (index 3) counts 48; the check letter (index 4) has weight 0.
  const sum = AO_WEIGHTS.reduce((acc, w, i) => acc + w * (i === 3 ? 48 : i === 4 ? 0 : Number(s[i])), 0);
  if (AO_LOOKUP[sum % 23] !== s[4]) return { ok: false, message: IDENTIFIER_MESSAGES.accountsOfficeCheck };
  return { ok: true, value: s };
}

/** A Companies House company number, stored as its 8 characters (digits padded with zeros). */
export function validateCompanyNumber(raw: string): IdentifierResult {
  const s = squash(raw);
  if (/^\d{1,8}$/.test(s)) return { ok: true, value: s.padStart(8, '0') };
  if (/^[A-Z]{2}\d{6}$/.test(s) || /^R0\d{6}$/.test(s)) return { ok: true, value: s };
  return { ok: false, message: IDENTIFIER_MESSAGES.companyNumberFormat };
}

/** A UK SIC 2007 code: 5 digits. */
export function validateSicCode(raw: string): IdentifierResult {
  const s = raw.trim();
  if (!/^\d{5}$/.test(s)) return { ok: false, message: IDENTIFIER_MESSAGES.sicFormat };
  return { ok: true, value: s };
}

export const IDENTIFIER_VALIDATORS = {
  utr: validateUtr,
  vat_number: validateVatNumber,
  nino: validateNino,
  paye_reference: validatePayeReference,
  accounts_office_reference: validateAccountsOfficeReference,
  company_number: validateCompanyNumber,
} as const;
export type CheckedIdentifier = keyof typeof IDENTIFIER_VALIDATORS;
