import { AppError, enqueueEvent, type Principal } from '@countinghouse/kit';
import {
  CLIENT_PROFILE_MESSAGES,
  isClientProfileComplete,
  type Client,
  type ClientCreateBody,
  type ClientList,
  type ClientListQuery,
  type ClientProfileBody,
  type ClientUpdateBody,
} from '@countinghouse/proto';
import { insertClient, listClients, lockClientByUserId, updateClient } from '../db/clients.js';
import { getClient, getClientByUserId, isActiveMember, publishClientUpserted, toClient } from '../db/queries.js';
import { SCHEMA, type clients } from '../db/schema.js';
import { insertTimelineEntry } from '../db/workspace.js';
import { scopeOf } from '../domain/access.js';
import { checkProfile } from '../domain/client-profile.js';
import { cleanOptional, cleanRequired, CLIENT_MESSAGES, feeForPackage } from '../domain/clients.js';
import { actorOf, mapDbError, pageOf, type CrmDeps } from './deps.js';

/** An assigned accountant must be an active accountant of the team. */
export async function checkAccountant(deps: CrmDeps, id: string | null | undefined) {
  if (!id) return;
  if (!(await isActiveMember(deps.db, id, ['accountant'])))
    throw new AppError('VALIDATION_FAILED', CLIENT_MESSAGES.unknownAccountant, [
      { path: 'assigned_accountant_id', message: CLIENT_MESSAGES.unknownAccountant },
    ]);
}

/** The client list (an accountant sees only their assigned clients). */
export async function findClients(deps: CrmDeps, principal: Principal, q: ClientListQuery): Promise<ClientList> {
  const { rows, total } = await listClients(deps.db, scopeOf(principal), q, pageOf(q));
  return { clients: rows.map((r) => toClient(r.c, r.accountantName)), total, page: q.page, page_size: q.page_size };
}

/** The signed-in client's own business record. */
export async function getMyClient(deps: CrmDeps, principal: Principal): Promise<Client> {
  const c = principal.kind === 'user' ? await getClientByUserId(deps.db, principal.id) : null;
  if (!c) throw new AppError('NOT_FOUND', CLIENT_MESSAGES.notFound);
  return c;
}

/** A client edits their own business profile; completing it ticks the onboarding checklist. */
export async function changeMyProfile(deps: CrmDeps, principal: Principal, body: ClientProfileBody): Promise<Client> {
  const { changes, errors: problems } = checkProfile(body);
  if (problems.length) throw new AppError('VALIDATION_FAILED', problems[0]!.message, problems);
  await deps.db.transaction(async (tx) => {
    const current = await lockClientByUserId(tx, principal.id);
    if (!current) throw new AppError('NOT_FOUND', CLIENT_PROFILE_MESSAGES.noRecord);
    const next = {
      companyName: changes.companyName ?? current.companyName,
      contactName: changes.contactName ?? current.contactName,
      contactPhone: changes.contactPhone !== undefined ? changes.contactPhone : current.contactPhone,
    };
    // Completing the profile ticks the onboarding checklist; editing it later never unticks it.
    const complete = isClientProfileComplete({
      company_name: next.companyName,
      contact_name: next.contactName,
      contact_phone: next.contactPhone,
    });
    const row = await updateClient(tx, current.id, {
      ...changes,
      onboardingCompleted: current.onboardingCompleted || complete,
      updatedAt: new Date(),
    });
    await publishClientUpserted(tx, row!, actorOf(principal));
  });
  return (await getClientByUserId(deps.db, principal.id))!;
}

/** One client; an accountant asking for someone else's client learns nothing, not even that it exists. */
export async function getClientFor(deps: CrmDeps, principal: Principal, id: string): Promise<Client> {
  const c = await getClient(deps.db, id);
  const s = scopeOf(principal);
  if (!c || (s.kind === 'accountant' && c.assigned_accountant_id !== s.userId)) throw new AppError('NOT_FOUND', CLIENT_MESSAGES.notFound);
  // A view of the client record is audited (issue 34): who, when, from where.
  await enqueueEvent(
    deps.db,
    SCHEMA,
    'crm.record_viewed',
    { clientId: c.id, record: 'client_record', recordId: null, label: c.company_name },
    { actor: actorOf(principal), key: c.id },
  );
  return c;
}

/** Add Client: the fee follows the package. */
export async function addClient(deps: CrmDeps, principal: Principal, b: ClientCreateBody): Promise<Client> {
  await checkAccountant(deps, b.assigned_accountant_id);
  const packageName = cleanOptional(b.package_name) ?? null;
  let id = '';
  try {
    await deps.db.transaction(async (tx) => {
      const row = await insertClient(tx, {
        userId: b.user_id ?? null,
        companyName: cleanRequired(b.company_name),
        contactName: cleanOptional(b.contact_name) ?? null,
        contactEmail: cleanRequired(b.contact_email).toLowerCase(),
        contactPhone: cleanOptional(b.contact_phone) ?? null,
        businessType: b.business_type ?? 'limited',
        packageName,
        monthlyFee: feeForPackage(packageName),
        subscriptionStatus: b.subscription_status ?? 'pending',
        nextBillingDate: b.next_billing_date ?? null,
        registrationDate: b.registration_date ? new Date(b.registration_date) : undefined,
        onboardingCompleted: b.onboarding_completed ?? false,
        employeesCount: b.employees_count ?? 0,
        assignedAccountantId: b.assigned_accountant_id ?? null,
      });
      id = row.id;
      await publishClientUpserted(tx, row, actorOf(principal));
      // The record's Timeline starts here (issue 26); a client who signs up and pays starts with "Signed up".
      await insertTimelineEntry(tx, {
        sourceId: `client-created:${row.id}`,
        clientId: row.id,
        kind: 'client_created',
        at: row.createdAt,
        summary: `Client added: ${row.companyName}`,
        actorName: principal.name || null,
        source: 'crm',
      });
    });
  } catch (err) {
    mapDbError(err, { unique: CLIENT_MESSAGES.userLinked });
  }
  return (await getClient(deps.db, id))!;
}

/** Edit a client: changing the package changes the fee. */
export async function changeClient(deps: CrmDeps, principal: Principal, id: string, b: ClientUpdateBody): Promise<Client> {
  if (b.assigned_accountant_id) await checkAccountant(deps, b.assigned_accountant_id);
  const set: Partial<typeof clients.$inferInsert> = { updatedAt: new Date() };
  if (b.user_id !== undefined) set.userId = b.user_id;
  if (b.company_name !== undefined) set.companyName = cleanRequired(b.company_name);
  if (b.contact_name !== undefined) set.contactName = cleanOptional(b.contact_name) ?? null;
  if (b.contact_email !== undefined) set.contactEmail = cleanRequired(b.contact_email).toLowerCase();
  if (b.contact_phone !== undefined) set.contactPhone = cleanOptional(b.contact_phone) ?? null;
  if (b.business_type !== undefined) set.businessType = b.business_type;
  if (b.package_name !== undefined) {
    set.packageName = cleanOptional(b.package_name) ?? null;
    set.monthlyFee = feeForPackage(set.packageName);
  }
  if (b.subscription_status !== undefined) set.subscriptionStatus = b.subscription_status;
  if (b.next_billing_date !== undefined) set.nextBillingDate = b.next_billing_date;
  if (b.registration_date !== undefined) set.registrationDate = new Date(b.registration_date);
  if (b.onboarding_completed !== undefined) set.onboardingCompleted = b.onboarding_completed;
  if (b.employees_count !== undefined) set.employeesCount = b.employees_count;
  if (b.assigned_accountant_id !== undefined) set.assignedAccountantId = b.assigned_accountant_id;
  try {
    await deps.db.transaction(async (tx) => {
      const row = await updateClient(tx, id, set);
      if (!row) throw new AppError('NOT_FOUND', CLIENT_MESSAGES.notFound);
      await publishClientUpserted(tx, row, actorOf(principal));
    });
  } catch (err) {
    mapDbError(err, { unique: CLIENT_MESSAGES.userLinked });
  }
  return (await getClient(deps.db, id))!;
}
