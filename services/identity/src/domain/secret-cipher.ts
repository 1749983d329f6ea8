import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/**
 * AES-256-GCM for the second-factor secrets identity keeps (issue 32), the same construction as the
 * integrations' provider tokens (services/integrations/src/domain/token-cipher.ts): a fresh 12-byte IV
 * per value, the row's purpose and owner as associated data (a sealed secret copied to another person's
 * row does not open), stored as `v1.<iv>.<tag>.<ciphertext>` (base64url).
 */
export class SecretCipher {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SecretCipher: the key must be 32 bytes');
  }

  seal(plain: string, context: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
  }

  /** Throws when the value was changed, belongs to another context, or was sealed with another key. */
  open(sealed: string, context: string): string {
    const [version, iv, tag, ct] = sealed.split('.');
    if (version !== VERSION || !iv || !tag || ct === undefined) throw new Error('SecretCipher: unknown format');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(context, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  }

  /** Whether a stored value is sealed (rows written before issue 32's encryption hold the base32 secret). */
  static isSealed(value: string): boolean {
    return value.startsWith(`${VERSION}.`);
  }
}

/** The associated data of a person's TOTP secret. */
export const totpContext = (userId: string) => `totp:${userId}`;

/**
 * The associated data of an admin panel account's TOTP secret: another prefix than a person's, so a
 * sealed secret copied between the two tables does not open even if the ids were equal.
 */
export const adminTotpContext = (adminId: string) => `admin-totp:${adminId}`;
