import { randomBytes } from 'node:crypto';

export const USERNAME_PATTERN = /^[A-Za-z0-9._@-]{3,100}$/;

/** A generated first-start password: 20 characters from an unambiguous alphabet. */
export function generatePassword(length = 20): string {
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[bytes[i]! % alphabet.length];
  return out;
}
