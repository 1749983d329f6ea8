import {
  AppError,
  canSeeClient,
  clientScopeOf,
  enqueueEvent,
  isPracticeSide,
  type ClientScope,
  type DbOrTx,
  type Principal,
} from '@countinghouse/kit';
import {
  isCalendarDay,
  REQUEST_DOCUMENT_TYPES,
  type NewRequestBody,
  type RequestStatus,
  type ReviewItemBody,
  type SubmitItemBody,
  londonDate,
} from '@countinghouse/proto';
import {
  addActivity,
  awaitingReview,
  clientsIn,
  directoryEntry,
  findRequests,
  insertItems,
  insertRequest,
  itemById,
  itemsOf,
  requestById,
  setRequestStatus,
  templateById,
  updateItem,
  type DirectoryRow,
  type RequestRow,
} from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import { CLIENT_SCOPE } from '../domain/access.js';
import type { RequestsDeps } from './deps.js';
import { prepareFile } from './files.js';
import { sendReminder } from './reminders.js';
import { isOpenItem, toRequests } from './views.js';

const actorOf = (p: Principal) => ({ kind: p.kind, id: p.id });
const NOT_FOUND = () => new AppError('NOT_FOUND', 'Request not found');
const NO_ACCESS = () => new AppError('FORBIDDEN', "You don't have access to this client");

/** The client a principal asks about, or 404 (unknown) / 403 (not theirs). */
export async function clientFor(db: DbOrTx, p: Principal, clientId: string): Promise<DirectoryRow> {
  const c = await directoryEntry(db, clientId);
  if (!c) throw new AppError('NOT_FOUND', 'Client not found');
  if (!canSeeClient(clientScopeOf(p, CLIENT_SCOPE), c)) throw NO_ACCESS();
  return c;
}

async function practiceClientFor(db: DbOrTx, p: Principal, clientId: string): Promise<DirectoryRow> {
  const c = await clientFor(db, p, clientId);
  if (!isPracticeSide(clientScopeOf(p, CLIENT_SCOPE), c)) throw NO_ACCESS();
  return c;
}

export async function findClientRequests(deps: RequestsDeps, p: Principal, q: { status?: RequestStatus; client_id?: string }) {
  if (q.client_id) await clientFor(deps.db, p, q.client_id);
  const rows = await findRequests(deps.db, clientScopeOf(p, CLIENT_SCOPE), { status: q.status, clientId: q.client_id });
  return { requests: await toRequests(deps.db, rows, deps.now()) };
}

export async function getRequest(deps: RequestsDeps, p: Principal, id: string) {
  const r = await requestById(deps.db, id);
  if (!r) throw NOT_FOUND();
  await clientFor(deps.db, p, r.clientId);
  return (await toRequests(deps.db, [r], deps.now()))[0]!;
}

export async function findRequestClients(deps: RequestsDeps, p: Principal) {
  const scope = clientScopeOf(p, CLIENT_SCOPE);
  // A client is never on the practice's side: they see no list of clients (their own part of the scope is dropped).
  const practiceSide: ClientScope = scope.all ? scope : { ...scope, ownerUserId: null };
  return { clients: scope.all || scope.accountantId ? await clientsIn(deps.db, practiceSide) : [] };
}

export async function findAwaitingReview(deps: RequestsDeps, p: Principal) {
  return { items: await awaitingReview(deps.db, clientScopeOf(p, CLIENT_SCOPE)) };
}

/**
 * Open a request for a client (by hand, or by the daily job ahead of a deadline) and send its first
 * e-mail at once ("when sent"), in one transaction. Null when this deadline's request exists already.
 */
export async function openRequest(
  deps: RequestsDeps,
  tx: DbOrTx,
  client: DirectoryRow,
  input: NewRequestBody & { deadline_id?: string | null; deadline_due_on?: string | null },
  by: { id: string | null; name: string; actor: { kind: 'user' | 'admin' | 'system'; id: string | null } },
) {
  const template = input.template_id ? await templateById(tx, input.template_id) : null;
  if (input.template_id && !template) throw new AppError('VALIDATION_FAILED', 'That template no longer exists');
  const today = londonDate(deps.now());
  // (the schema checks the shape; 2026-02-30 or 8637-88-16 would reach PostgreSQL and fail there: a 500)
  if (!isCalendarDay(input.due_on)) throw new AppError('VALIDATION_FAILED', 'The due date is not a real date');
  if (input.due_on < today) throw new AppError('VALIDATION_FAILED', 'The due date has passed');
  const request = await insertRequest(tx, {
    clientId: client.clientId,
    title: input.title,
    dueOn: input.due_on,
    templateId: template?.id ?? null,
    schedule: template?.schedule ?? { before_days: [14, 7, 3, 1], overdue_every_days: 3 },
    deadlineId: input.deadline_id ?? null,
    deadlineDueOn: input.deadline_due_on ?? null,
    assigneeId: client.assignedAccountantId,
    createdBy: by.id,
    createdByName: by.name,
    sentOn: today,
  });
  if (!request) return null;
  const its = await insertItems(
    tx,
    input.items.map((i, n) => ({
      requestId: request.id,
      position: n + 1,
      kind: i.kind,
      label: i.label,
      documentType: i.kind === 'document' ? (i.document_type ?? 'other') : null,
    })),
  );
  await addActivity(tx, {
    requestId: request.id,
    action: 'opened',
    byId: by.id,
    byName: by.name,
    detail: `Sent with ${its.length} item(s), due ${input.due_on}`,
  });
  await enqueueEvent(
    tx,
    SCHEMA,
    'requests.request_opened',
    {
      requestId: request.id,
      clientId: client.clientId,
      title: request.title,
      dueOn: request.dueOn,
      deadlineId: request.deadlineId,
      assigneeId: request.assigneeId,
      items: its.length,
    },
    { actor: by.actor, key: client.clientId },
  );
  await sendReminder(deps, tx, request, client, today, by.name);
  return request;
}

export async function sendRequest(deps: RequestsDeps, p: Principal, input: NewRequestBody) {
  const client = await practiceClientFor(deps.db, p, input.client_id);
  const request = await deps.db.transaction((tx) => openRequest(deps, tx, client, input, { id: p.id, name: p.name, actor: actorOf(p) }));
  return (await toRequests(deps.db, [request!], deps.now()))[0]!;
}

async function lockedItem(tx: DbOrTx, p: Principal, requestId: string, itemId: string) {
  const request = await requestById(tx, requestId, { forUpdate: true });
  if (!request) throw NOT_FOUND();
  const client = await clientFor(tx, p, request.clientId);
  const item = await itemById(tx, itemId, { forUpdate: true });
  if (!item || item.requestId !== request.id) throw new AppError('NOT_FOUND', 'Item not found');
  return { request, client, item };
}

/** The client answers, confirms or uploads against an item; a rejected item reopens this way. */
export async function submitItem(deps: RequestsDeps, p: Principal, requestId: string, itemId: string, body: SubmitItemBody) {
  await deps.db.transaction(async (tx) => {
    const { request, client, item } = await lockedItem(tx, p, requestId, itemId);
    if (request.status !== 'open') throw new AppError('CONFLICT', 'This request is closed');
    if (!isOpenItem(item))
      throw new AppError('CONFLICT', item.status === 'accepted' ? 'This item is already accepted' : 'This item is waiting for review');
    const set: Parameters<typeof updateItem>[2] = { status: 'submitted', submittedAt: deps.now(), rejectionReason: item.rejectionReason };
    const files = [];
    let detail: string;
    if (item.kind === 'document') {
      if (!body.file) throw new AppError('VALIDATION_FAILED', 'Choose a file to upload');
      const label = REQUEST_DOCUMENT_TYPES.find((t) => t.value === item.documentType)?.label ?? 'Document';
      const f = prepareFile(body.file, item.documentType ?? 'other', `${label}: ${item.label} (requested in "${request.title}")`);
      files.push(f);
      set.documentIds = [...item.documentIds, f.documentId];
      detail = `Uploaded ${f.filename}`;
    } else if (item.kind === 'question') {
      if (!body.answer?.trim()) throw new AppError('VALIDATION_FAILED', 'Write an answer');
      set.answer = body.answer.trim();
      detail = 'Answered';
    } else {
      if (typeof body.confirmed !== 'boolean') throw new AppError('VALIDATION_FAILED', 'Choose yes or no');
      set.confirmed = body.confirmed;
      detail = `Confirmed: ${body.confirmed ? 'yes' : 'no'}`;
    }
    await updateItem(tx, item.id, set);
    await addActivity(tx, { requestId, itemId, action: 'submitted', byId: p.id, byName: p.name, detail: `${item.label}: ${detail}` });
    await enqueueEvent(
      tx,
      SCHEMA,
      'requests.item_submitted',
      { requestId, clientId: client.clientId, title: request.title, itemId, label: item.label, uploadedBy: p.id, documents: files },
      { actor: actorOf(p), key: client.clientId },
    );
  });
  return getRequest(deps, p, requestId);
}

/** The practice accepts an item or sends it back with a reason the client sees; all accepted completes it. */
export async function reviewItem(deps: RequestsDeps, p: Principal, requestId: string, itemId: string, body: ReviewItemBody) {
  await deps.db.transaction(async (tx) => {
    const { request, client, item } = await lockedItem(tx, p, requestId, itemId);
    if (!isPracticeSide(clientScopeOf(p, CLIENT_SCOPE), client)) throw NO_ACCESS();
    if (request.status !== 'open') throw new AppError('CONFLICT', 'This request is closed');
    if (item.status !== 'submitted') throw new AppError('CONFLICT', 'Only a submitted item can be reviewed');
    const ref = { requestId, clientId: client.clientId, title: request.title, itemId, label: item.label };
    if (body.decision === 'reject') {
      const reason = body.reason?.trim();
      if (!reason) throw new AppError('VALIDATION_FAILED', 'Say why, so the client knows what to send');
      await updateItem(tx, item.id, { status: 'rejected', rejectionReason: reason, reviewedAt: deps.now() });
      await addActivity(tx, { requestId, itemId, action: 'rejected', byId: p.id, byName: p.name, detail: `${item.label}: ${reason}` });
      await enqueueEvent(tx, SCHEMA, 'requests.item_rejected', { ...ref, reason }, { actor: actorOf(p), key: client.clientId });
      return;
    }
    await updateItem(tx, item.id, { status: 'accepted', reviewedAt: deps.now() });
    await addActivity(tx, { requestId, itemId, action: 'accepted', byId: p.id, byName: p.name, detail: item.label });
    await enqueueEvent(tx, SCHEMA, 'requests.item_accepted', { ...ref, reason: null }, { actor: actorOf(p), key: client.clientId });
    await completeIfDone(deps, tx, request, p);
  });
  return getRequest(deps, p, requestId);
}

async function completeIfDone(deps: RequestsDeps, tx: DbOrTx, request: RequestRow, p: Principal) {
  const its = await itemsOf(tx, [request.id]);
  if (!its.every((i) => i.status === 'accepted')) return;
  await setRequestStatus(tx, request.id, 'complete', deps.now());
  await addActivity(tx, { requestId: request.id, action: 'completed', byId: p.id, byName: p.name, detail: 'Every item accepted' });
  await enqueueEvent(
    tx,
    SCHEMA,
    'requests.request_completed',
    { requestId: request.id, clientId: request.clientId, title: request.title },
    { actor: actorOf(p), key: request.clientId },
  );
}

export async function cancelRequest(deps: RequestsDeps, p: Principal, requestId: string) {
  await deps.db.transaction(async (tx) => {
    const request = await requestById(tx, requestId, { forUpdate: true });
    if (!request) throw NOT_FOUND();
    const client = await practiceClientFor(tx, p, request.clientId);
    if (request.status !== 'open') throw new AppError('CONFLICT', 'This request is closed');
    await setRequestStatus(tx, request.id, 'cancelled', null);
    await addActivity(tx, { requestId, action: 'cancelled', byId: p.id, byName: p.name, detail: `Cancelled for ${client.companyName}` });
  });
  return getRequest(deps, p, requestId);
}

/** "Send a reminder now": the same e-mail as the schedule's, at most one a day. */
export async function remindNow(deps: RequestsDeps, p: Principal, requestId: string) {
  const sent = await deps.db.transaction(async (tx) => {
    const request = await requestById(tx, requestId, { forUpdate: true });
    if (!request) throw NOT_FOUND();
    const client = await practiceClientFor(tx, p, request.clientId);
    if (request.status !== 'open') throw new AppError('CONFLICT', 'This request is closed');
    return sendReminder(deps, tx, request, client, londonDate(deps.now()), p.name);
  });
  if (!sent) throw new AppError('CONFLICT', 'A reminder already went today, or nothing is waiting from the client');
  return { ok: true, message: 'Reminder sent' };
}
