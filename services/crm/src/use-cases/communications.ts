import { AppError, type Principal } from '@countinghouse/kit';
import type { Communication, CommunicationCreateBody, CommunicationList, CommunicationListQuery } from '@countinghouse/proto';
import { clientCompanyName } from '../db/clients.js';
import { findCommunication, insertCommunication, listCommunications } from '../db/communications.js';
import { toCommunication } from '../db/queries.js';
import { cleanOptional, cleanRequired, CLIENT_MESSAGES } from '../domain/clients.js';
import { pageOf, type CrmDeps } from './deps.js';

const NOT_FOUND = 'Communication not found';

/** Communications with clients, newest first. */
export async function findCommunications(deps: CrmDeps, q: CommunicationListQuery): Promise<CommunicationList> {
  const { communications, total } = await listCommunications(deps.db, q, pageOf(q));
  return { communications, total, page: q.page, page_size: q.page_size };
}

export async function getCommunication(deps: CrmDeps, id: string): Promise<Communication> {
  const c = await findCommunication(deps.db, id);
  if (!c) throw new AppError('NOT_FOUND', NOT_FOUND);
  return c;
}

/** Log a call, e-mail, meeting, letter or portal message with a client. */
export async function logCommunication(deps: CrmDeps, principal: Principal, b: CommunicationCreateBody): Promise<Communication> {
  const company = await clientCompanyName(deps.db, b.client_id);
  if (company === null)
    throw new AppError('VALIDATION_FAILED', CLIENT_MESSAGES.notFound, [{ path: 'client_id', message: CLIENT_MESSAGES.notFound }]);
  const row = await insertCommunication(deps.db, {
    clientId: b.client_id,
    channel: b.channel,
    direction: b.direction,
    subject: cleanRequired(b.subject),
    body: cleanOptional(b.body) ?? null,
    occurredAt: b.occurred_at ? new Date(b.occurred_at) : undefined,
    createdBy: principal.id,
  });
  return toCommunication(row, company);
}
