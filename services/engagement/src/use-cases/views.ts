import type { Letter, LetterSummary } from '@countinghouse/proto';
import type { LetterRow } from '../db/queries.js';
import { cancellationEndsOn } from '../domain/cancellation.js';
import { enGbDate } from '@countinghouse/proto';
import { versionStatus } from '../domain/status.js';

const iso = (d: Date | string) => (d instanceof Date ? d : new Date(d)).toISOString();

export function toSummary(l: LetterRow, newestVersion: number): LetterSummary {
  return {
    id: l.id,
    client_id: l.clientId,
    version: l.version,
    status: versionStatus(l, newestVersion),
    reason: l.reason,
    package_name: l.packageName,
    monthly_fee: Number(l.monthlyFee),
    is_consumer: l.isConsumer,
    template_version: l.templateVersion,
    text_sha256: l.textSha256,
    sent_at: iso(l.sentAt),
    signed_at: l.signedAt ? iso(l.signedAt) : null,
    signer_name: l.signerName,
    document_id: l.documentId,
  };
}

export function toLetter(l: LetterRow, newestVersion: number): Letter {
  return {
    ...toSummary(l, newestVersion),
    text: l.text,
    client_name: l.clientName,
    signature: l.signedAt
      ? {
          signer_name: l.signerName!,
          signer_email: l.signerEmail ?? '',
          signed_at: iso(l.signedAt),
          ip: l.signerIp,
          user_agent: l.signerUserAgent,
          pdf_sha256: l.pdfSha256 ?? '',
          document_id: l.documentId!,
          cancellation_ends_on: l.isConsumer ? cancellationEndsOn(l.signedAt) : null,
        }
      : null,
  };
}

export { enGbDate };
