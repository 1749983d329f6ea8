import { clientDirectoryRow, subscribe, type Runtime } from '@countinghouse/kit';
import { AML_EVIDENCE_DOCUMENT_TYPE } from '@countinghouse/proto';
import { ensureFile, saveCompanyPeople, saveEvidenceDocument, upsertDirectory } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import { londonToday } from '../domain/dates.js';
import { eraseForRetention } from '../use-cases/retention.js';
import { syncCompanyPeople } from '../use-cases/sync-companies-house.js';

export const AML_CONSUMER = 'aml.events';

/**
 * What the AML files learn from other services, once per event id (the kit checks each payload against
 * its proto schema and records it in the handler's transaction):
 * - crm.client_upserted: the client directory (name, accountant, status; the day the relationship ended);
 * - deadlines.company_refreshed: the officers and PSCs Companies House lists, merged into the file;
 * - documents.document_uploaded of type aml_evidence: the evidence files this client's file may cite.
 */
export async function subscribeAmlEvents(runtime: Runtime): Promise<void> {
  await subscribe(runtime, {
    group: AML_CONSUMER,
    schema: SCHEMA,
    types: ['crm.client_upserted', 'deadlines.company_refreshed', 'documents.document_uploaded'],
    handler: async (event, tx) => {
      switch (event.type) {
        case 'crm.client_upserted': {
          const d = event.data;
          const won = await upsertDirectory(
            tx,
            { ...clientDirectoryRow(event), businessType: d.businessType ?? null, subscriptionStatus: d.subscriptionStatus },
            londonToday(new Date(event.occurredAt)),
          );
          if (won) {
            await ensureFile(tx, d.clientId);
            await syncCompanyPeople(tx, d.clientId);
          }
          break;
        }
        case 'deadlines.company_refreshed': {
          const d = event.data;
          await saveCompanyPeople(tx, {
            clientId: d.clientId,
            companyNumber: d.companyNumber,
            officers: d.officers,
            pscs: d.pscs,
            at: event.occurredAt,
          });
          await syncCompanyPeople(tx, d.clientId);
          break;
        }
        case 'documents.document_uploaded': {
          const d = event.data;
          // Only identity evidence is the AML file's business.
          if (d.documentType === AML_EVIDENCE_DOCUMENT_TYPE)
            await saveEvidenceDocument(tx, { documentId: d.documentId, clientId: d.clientId, filename: d.filename, at: event.occurredAt });
          break;
        }
      }
    },
  });
}

export const AML_RETENTION_CONSUMER = 'aml.retention';

/** records.erase_requested (issue 34): the client's AML file goes when the retention schedule says so. */
export async function subscribeAmlRetention(runtime: Runtime, today: () => string): Promise<void> {
  await subscribe(runtime, {
    group: AML_RETENTION_CONSUMER,
    schema: SCHEMA,
    types: ['records.erase_requested'],
    handler: async (event, tx) => eraseForRetention(tx, today(), event.data, event.actor),
  });
}
