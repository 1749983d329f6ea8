import { hash, verify } from '@node-rs/argon2';
import { LIMITS, MESSAGES } from '@countinghouse/proto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// argon2id with the library's defaults (m=19456 KiB, t=2, p=1: OWASP's minimum), about 19 ms here.
export async function hashPassword(password: string): Promise<string> {
  return hash(password);
}

// A real hash of a random string, so a login for an unknown name costs the same as a wrong password.
let dummy: Promise<string> | null = null;

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    dummy ??= hash(`no-such-user-${Math.random()}`);
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** How many of the ranked list's most common passwords are refused, for everyone. */
export const COMMON_PASSWORDS_CHECKED = 10_000;

let common: Set<string> | null = null;

/**
 * The 10,000 most common passwords, lower-cased: the head of the ranked list that zxcvbn (Dropbox,
 * MIT licence) ships as data in @zxcvbn-ts/language-common (docs/decisions.md). Read once, on first use.
 */
export function commonPasswords(): ReadonlySet<string> {
  if (!common) {
    const require = createRequire(import.meta.url);
    const ranked: unknown = JSON.parse(readFileSync(require.resolve('@zxcvbn-ts/language-common/src/passwords.json'), 'utf8'));
    if (!isTextList(ranked)) throw new Error('@zxcvbn-ts/language-common: passwords.json is not a list of passwords');
    common = new Set(ranked.slice(0, COMMON_PASSWORDS_CHECKED).map((p) => p.toLowerCase()));
  }
  return common;
}

function isTextList(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((p) => typeof p === 'string');
}

export function isCommonPassword(password: string): boolean {
  return commonPasswords().has(password.toLowerCase());
}

/**
 * Why a new password is refused, or null: one rule for everyone (issue 32), clients, staff and
 * administrators alike. The spec's 6-character minimum with its message, and none of the most common
 * passwords (NCSC and NIST SP 800-63B both advise refusing known-common passwords), checked
 * case-insensitively.
 */
export function passwordProblem(password: string): string | null {
  if (password.length < LIMITS.minPasswordLength) return MESSAGES.passwordTooShort;
  if (isCommonPassword(password)) return MESSAGES.commonPassword;
  return null;
}
