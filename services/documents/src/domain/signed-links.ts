import { cleanDisplayName } from '@countinghouse/proto';
import { createHmac, timingSafeEqual } from 'node:crypto';

/** HMAC-SHA256 over the document id and the expiry (seconds): the link works for that one document until then. */
export function signViewLink(secret: string | Buffer, documentId: string, expiresAt: number): string {
  return createHmac('sha256', secret).update(`documents.view:${documentId}:${expiresAt}`).digest('base64url');
}

export type LinkCheck = 'ok' | 'tampered' | 'expired';

/** Signature first (an altered expiry or id fails it), then the clock. */
export function checkViewLink(secret: string | Buffer, documentId: string, expiresAt: number, sig: string, nowSeconds: number): LinkCheck {
  const expected = Buffer.from(signViewLink(secret, documentId, expiresAt));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'tampered';
  return expiresAt > nowSeconds ? 'ok' : 'expired';
}

/**
 * Content-Disposition with the document's name (controls and bidirectional overrides removed, whatever
 * the row holds): an ASCII fallback plus RFC 5987's UTF-8 form.
 */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const filename = cleanDisplayName(name) || 'file';
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
