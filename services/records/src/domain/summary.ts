import type { EventOf } from '@countinghouse/kit';
import type { EventData, EventType } from '@countinghouse/proto';
import { createHash } from 'node:crypto';

/** Every event the audit trail records (views, and changes to a client's data in each service). */
export const AUDITED_EVENTS = [
  'crm.client_upserted',
  'crm.task_done',
  'crm.record_viewed',
  'aml.record_viewed',
  'documents.record_viewed',
  'documents.document_uploaded',
  'aml.file_submitted',
  'aml.file_returned',
  'aml.file_approved',
  'aml.file_deleted',
  'aml.identity_verification_recorded',
  'engagement.letter_sent',
  'engagement.letter_signed',
  'requests.request_opened',
  'requests.item_submitted',
  'requests.item_accepted',
  'requests.item_rejected',
  'requests.request_completed',
  'requests.message_posted',
  'identity.role_changed',
  'identity.second_factor_reset',
  'documents.records_erased',
  'aml.records_erased',
  'engagement.records_erased',
  'integrations.mtd_update_submitted',
  'integrations.mtd_final_declaration_submitted',
] as const satisfies readonly EventType[];
export type AuditedEvent = (typeof AUDITED_EVENTS)[number];

export const VIEW_EVENTS: readonly string[] = ['crm.record_viewed', 'aml.record_viewed', 'documents.record_viewed'];

/** A client's fields as crm publishes them, by the name a person reads; values are only ever hashed. */
const CLIENT_FIELDS: ReadonlyArray<[keyof EventData<'crm.client_upserted'>, string]> = [
  ['companyName', 'company name'],
  ['contactName', 'contact name'],
  ['contactEmail', 'contact e-mail'],
  ['contactPhone', 'contact phone'],
  ['packageName', 'package'],
  ['monthlyFee', 'monthly fee'],
  ['subscriptionStatus', 'subscription status'],
  ['assignedAccountantId', 'assigned accountant'],
  ['businessType', 'business type'],
  ['userId', 'sign-in account'],
];

/** Each field's hash (salted with the client's id), to compare with the last one seen. */
export function clientFieldHashes(d: EventData<'crm.client_upserted'>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, label] of CLIENT_FIELDS) {
    const value = d[key];
    if (value === undefined) continue; // an older event without the field: not a change
    out.set(
      label,
      createHash('sha256')
        .update(`${d.clientId}\n${label}\n${JSON.stringify(value)}`)
        .digest('hex'),
    );
  }
  return out;
}

/** "Changed: contact phone" from the hashes before and after; null when nothing changed (a re-publish). */
export function clientChangeSummary(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): string | null {
  if (before.size === 0) return 'Client record created';
  const changed = [...after].filter(([field, hash]) => before.get(field) !== hash).map(([field]) => field);
  return changed.length ? `Changed: ${changed.join(', ')}` : null;
}

const VIEWED_LABELS: Record<string, string> = {
  client_record: 'Viewed the client record',
  aml_file: 'Viewed the AML file',
  identity_documents: 'Opened an identity document',
  document: 'Opened a document',
};

/**
 * The client and the short summary of every audited event but crm.client_upserted (which needs the
 * last hashes). Names of records and fields only, never their content (no message text, no file data).
 */
export function describe(e: EventOf<Exclude<AuditedEvent, 'crm.client_upserted'>>): {
  clientId: string | null;
  summary: string;
} {
  const d: Record<string, unknown> = e.data;
  const clientId = typeof d.clientId === 'string' ? d.clientId : null;
  const s = (k: string) => String(d[k] ?? '');
  switch (e.type) {
    case 'crm.record_viewed':
    case 'aml.record_viewed':
    case 'documents.record_viewed':
      return { clientId, summary: `${VIEWED_LABELS[s('record')] ?? 'Viewed'}: ${s('label')}` };
    case 'crm.task_done':
      return { clientId, summary: `Task done: ${s('title')}` };
    case 'documents.document_uploaded':
      return { clientId, summary: `Document uploaded: ${s('filename')} (${s('documentType')})` };
    case 'aml.file_submitted':
      return { clientId, summary: `AML file version ${s('version')} sent for approval` };
    case 'aml.file_returned':
      return { clientId, summary: `AML file version ${s('version')} returned to draft` };
    case 'aml.file_approved':
      return { clientId, summary: `AML file version ${s('version')} approved (risk ${s('riskLevel')})` };
    case 'aml.file_deleted':
      return { clientId, summary: 'AML file deleted' };
    case 'aml.identity_verification_recorded':
      return { clientId, summary: `Identity verification ${d.withdrawn ? 'withdrawn' : 'recorded'}: ${s('personName')}` };
    case 'engagement.letter_sent':
      return { clientId, summary: `Engagement letter version ${s('version')} sent (${s('packageName')})` };
    case 'engagement.letter_signed':
      return { clientId, summary: `Engagement letter version ${s('version')} signed by ${s('signerName')}` };
    case 'requests.request_opened':
      return { clientId, summary: `Request opened: ${s('title')}` };
    case 'requests.item_submitted':
      return { clientId, summary: `Request item answered: ${s('label')}` };
    case 'requests.item_accepted':
      return { clientId, summary: `Request item accepted: ${s('label')}` };
    case 'requests.item_rejected':
      return { clientId, summary: `Request item rejected: ${s('label')}` };
    case 'requests.request_completed':
      return { clientId, summary: `Request completed: ${s('title')}` };
    case 'requests.message_posted':
      return { clientId, summary: `Secure message written (${s('side')})` };
    case 'identity.role_changed':
      return { clientId: null, summary: `Role ${s('role')} ${d.isActive ? 'given to' : 'taken from'} ${s('name')}` };
    case 'identity.second_factor_reset':
      return {
        clientId: null,
        summary: `Two-factor sign-in reset for ${d.account === 'admin_panel' ? 'admin panel account' : 'user'} ${s('userId')}`,
      };
    case 'documents.records_erased':
    case 'aml.records_erased':
    case 'engagement.records_erased':
      return { clientId, summary: `Retention: ${Array.isArray(d.items) ? d.items.length : 0} ${s('recordType')} erased` };
    case 'integrations.mtd_update_submitted':
      return { clientId, summary: `MTD quarterly update sent to HMRC: ${s('taxYear')} to ${s('periodEndDate')}` };
    case 'integrations.mtd_final_declaration_submitted':
      return { clientId, summary: `MTD final declaration sent to HMRC for ${s('taxYear')}` };
  }
}
