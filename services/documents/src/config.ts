import { ConfigError } from '@countinghouse/kit';
import { readFileSync } from 'node:fs';
import { Type, type Static } from '@sinclair/typebox';
import type { S3StorageOptions } from './adapters/storage/s3-storage.js';

/** The documents service's own settings (beside the kit's BaseConfigSchema), parsed once at start. */
export const DocumentsConfigSchema = Type.Object({
  /** Where uploaded files live on local disk, when no object store is configured; every replica must see the same folder. */
  DOCUMENTS_STORAGE_DIR: Type.String({ default: '' }),
  /** Secret of the signed view links, shared by every replica (at least 32 characters); or a file holding it. */
  DOCUMENTS_LINK_SECRET: Type.String({ pattern: '^$|^.{32,}$', default: '' }),
  DOCUMENTS_LINK_SECRET_FILE: Type.String({ default: '' }),
  /** The object store (all six or none): files in a bucket every replica reads and writes. */
  S3_ENDPOINT: Type.String({ pattern: '^(https?://.*)?$', default: '' }),
  S3_BUCKET: Type.String({ default: '' }),
  S3_REGION: Type.String({ default: '' }),
  S3_ACCESS_KEY_ID: Type.String({ default: '' }),
  S3_SECRET_ACCESS_KEY: Type.String({ default: '' }),
  S3_FORCE_PATH_STYLE: Type.String({ pattern: '^(true|false)?$', default: '' }),
});
export type DocumentsConfig = Static<typeof DocumentsConfigSchema>;

const S3_KEYS = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE'] as const;

/**
 * Where the files go: the object store when its S3_* group is set (all of it), else DOCUMENTS_STORAGE_DIR.
 * Throws ConfigError naming what is missing: half an object store never silently falls back to the disk.
 */
export function storageChoice(c: DocumentsConfig): { s3: S3StorageOptions } | { dir: string } {
  const set = S3_KEYS.filter((k) => c[k] !== '');
  if (set.length > 0 && set.length < S3_KEYS.length) {
    const missing = S3_KEYS.filter((k) => c[k] === '');
    throw new ConfigError(
      `Invalid configuration:\n${missing.map((k) => `  - ${k}: required with the other S3_* settings (set all six or none)`).join('\n')}`,
    );
  }
  if (set.length === S3_KEYS.length) {
    return {
      s3: {
        endpoint: c.S3_ENDPOINT,
        bucket: c.S3_BUCKET,
        region: c.S3_REGION,
        accessKeyId: c.S3_ACCESS_KEY_ID,
        secretAccessKey: c.S3_SECRET_ACCESS_KEY,
        forcePathStyle: c.S3_FORCE_PATH_STYLE === 'true',
      },
    };
  }
  if (!c.DOCUMENTS_STORAGE_DIR)
    throw new ConfigError('Invalid configuration:\n  - DOCUMENTS_STORAGE_DIR or the S3_* settings: one of them is required');
  return { dir: c.DOCUMENTS_STORAGE_DIR };
}

/** The view-link secret, inline or from DOCUMENTS_LINK_SECRET_FILE (the file wins); at least 32 characters. */
export function linkSecretOf(c: DocumentsConfig): string {
  let secret = c.DOCUMENTS_LINK_SECRET;
  if (c.DOCUMENTS_LINK_SECRET_FILE) {
    try {
      secret = readFileSync(c.DOCUMENTS_LINK_SECRET_FILE, 'utf8').trim();
    } catch (err) {
      throw new ConfigError(
        `Invalid configuration:\n  - DOCUMENTS_LINK_SECRET_FILE: cannot be read (${err instanceof Error && 'code' in err && typeof err.code === 'string' ? err.code : 'error'})`,
      );
    }
  }
  if (secret.length < 32)
    throw new ConfigError(
      'Invalid configuration:\n  - DOCUMENTS_LINK_SECRET (or DOCUMENTS_LINK_SECRET_FILE): at least 32 characters required',
    );
  return secret;
}
