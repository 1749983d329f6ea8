import { idempotent, type Db, type EventHandler } from '@countinghouse/kit';
import {
  AML_EVIDENCE_DOCUMENT_TYPE,
  ClientUpsertedSchema,
  CompanyRefreshedSchema,
  DocumentUploadedSchema,
  type EventEnvelope,
} from '@countinghouse/proto';
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { Logger } from 'pino';
import { ensureFile, saveCompanyPeople, saveEvidenceDocument, upsertDirectory } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import { londonToday } from '../domain/dates.js';
import { syncCompanyPeople } from '../use-cases/sync-companies-house.js';

export const AML_CONSUMER = 'aml.events';

/** A payload checked against its proto schema; a malformed one is logged and skipped (it could never apply). */
function checked<S extends TSchema>(
  schema: S,
  envelope: EventEnvelope,
  logger: Logger,
): envelope is EventEnvelope<import('@sinclair/typebox').Static<S>> {
  if (Value.Check(schema, envelope.data)) return true;
  logger.error(
    { eventId: envelope.id, type: envelope.type, errors: [...Value.Errors(schema, envelope.data)].slice(0, 5) },
    'malformed event skipped',
  );
  return false;
}

/**
 * What the AML files learn from other services, once per event id:
 * - crm.client_upserted: the client directory (name, accountant, status; the day the relationship ended);
 * - deadlines.company_refreshed: the officers and PSCs Companies House lists, merged into the file;
 * - documents.document_uploaded of type aml_evidence: the evidence files this client's file may cite.
 */
export function amlEventsHandler(db: Db, logger: Logger): EventHandler {
  const apply = idempotent(db, SCHEMA, AML_CONSUMER, async (envelope, tx) => {
    if (envelope.type === 'crm.client_upserted' && checked(ClientUpsertedSchema, envelope, logger)) {
      const d = envelope.data;
      const won = await upsertDirectory(tx, {
        clientId: d.clientId,
        userId: d.userId,
        companyName: d.companyName,
        businessType: d.businessType ?? null,
        status: d.subscriptionStatus,
        accountantId: d.assignedAccountantId,
        at: envelope.occurredAt,
        londonDay: londonToday(new Date(envelope.occurredAt)),
      });
      if (won) {
        await ensureFile(tx, d.clientId);
        await syncCompanyPeople(tx, d.clientId);
      }
    } else if (envelope.type === 'deadlines.company_refreshed' && checked(CompanyRefreshedSchema, envelope, logger)) {
      const d = envelope.data;
      await saveCompanyPeople(tx, {
        clientId: d.clientId,
        companyNumber: d.companyNumber,
        officers: d.officers,
        pscs: d.pscs,
        at: envelope.occurredAt,
      });
      await syncCompanyPeople(tx, d.clientId);
    } else if (envelope.type === 'documents.document_uploaded' && checked(DocumentUploadedSchema, envelope, logger)) {
      const d = envelope.data;
      await saveEvidenceDocument(tx, { documentId: d.documentId, clientId: d.clientId, filename: d.filename, at: envelope.occurredAt });
    }
  });
  return async (envelope) => {
    if (envelope.type === 'crm.client_upserted' || envelope.type === 'deadlines.company_refreshed') return apply(envelope);
    // Only identity evidence is the AML file's business (every other upload passes by unrecorded).
    if (
      envelope.type === 'documents.document_uploaded' &&
      (envelope.data as { documentType?: unknown } | null)?.documentType === AML_EVIDENCE_DOCUMENT_TYPE
    )
      return apply(envelope);
  };
}
