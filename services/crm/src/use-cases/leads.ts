import { AppError, type Principal } from '@countinghouse/kit';
import type {
  Lead,
  LeadConvertBody,
  LeadConvertReply,
  LeadCreateBody,
  LeadList,
  LeadListQuery,
  LeadUpdateBody,
} from '@countinghouse/proto';
import { insertClient } from '../db/clients.js';
import { findLead, insertLead, listLeads, lockLead, updateLead } from '../db/leads.js';
import { getClient, isActiveMember, publishClientUpserted, toLead } from '../db/queries.js';
import type { leads } from '../db/schema.js';
import { cleanOptional, cleanRequired, CLIENT_MESSAGES, feeForPackage } from '../domain/clients.js';
import { decideConversion, decideStageChange, LEAD_MESSAGES } from '../domain/leads.js';
import { actorOf, mapDbError, pageOf, type CrmDeps } from './deps.js';

const NEEDS_EMAIL = 'Add an e-mail address to this lead before converting it into a client.';

/** Leads, newest first, with search and stage/source filters. */
export async function findLeads(deps: CrmDeps, q: LeadListQuery): Promise<LeadList> {
  const { rows, total } = await listLeads(deps.db, q, pageOf(q));
  return { leads: rows.map(toLead), total, page: q.page, page_size: q.page_size };
}

export async function getLead(deps: CrmDeps, id: string): Promise<Lead> {
  const row = await findLead(deps.db, id);
  if (!row) throw new AppError('NOT_FOUND', LEAD_MESSAGES.notFound);
  return toLead(row);
}

/** Add Lead (one lead per e-mail address). */
export async function addLead(deps: CrmDeps, b: LeadCreateBody): Promise<Lead> {
  try {
    const row = await insertLead(deps.db, {
      name: cleanRequired(b.name),
      email: cleanRequired(b.email).toLowerCase(),
      phone: cleanOptional(b.phone) ?? null,
      companyName: cleanOptional(b.company_name) ?? null,
      stage: b.stage ?? 'new_enquiry',
      businessType: b.business_type ?? null,
      quoteAmount: b.quote_amount ?? null,
      source: cleanOptional(b.source) ?? null,
      tags: b.tags ?? [],
      notes: cleanOptional(b.notes) ?? null,
    });
    return toLead(row);
  } catch (err) {
    mapDbError(err, { unique: LEAD_MESSAGES.duplicateEmail });
  }
}

/** Edit a lead or move it to another stage (a converted lead stays won). */
export async function changeLead(deps: CrmDeps, id: string, b: LeadUpdateBody): Promise<Lead> {
  try {
    return await deps.db.transaction(async (tx) => {
      const cur = await lockLead(tx, id);
      if (!cur) throw new AppError('NOT_FOUND', LEAD_MESSAGES.notFound);
      if (b.stage !== undefined) {
        const d = decideStageChange({ stage: cur.stage, convertedClientId: cur.convertedClientId }, b.stage);
        if (!d.ok) throw new AppError(d.code, d.message);
      }
      const set: Partial<typeof leads.$inferInsert> = { updatedAt: new Date() };
      if (b.name !== undefined) set.name = cleanRequired(b.name);
      if (b.email !== undefined) set.email = cleanRequired(b.email).toLowerCase();
      if (b.phone !== undefined) set.phone = cleanOptional(b.phone) ?? null;
      if (b.company_name !== undefined) set.companyName = cleanOptional(b.company_name) ?? null;
      if (b.stage !== undefined) set.stage = b.stage;
      if (b.business_type !== undefined) set.businessType = b.business_type;
      if (b.quote_amount !== undefined) set.quoteAmount = b.quote_amount;
      if (b.source !== undefined) set.source = cleanOptional(b.source) ?? null;
      if (b.tags !== undefined) set.tags = b.tags;
      if (b.notes !== undefined) set.notes = cleanOptional(b.notes) ?? null;
      return toLead(await updateLead(tx, id, set));
    });
  } catch (err) {
    mapDbError(err, { unique: LEAD_MESSAGES.duplicateEmail });
  }
}

/** Convert a won lead into a client, once: the client, the lead's link and the event commit together. */
export async function convertLead(deps: CrmDeps, principal: Principal, id: string, b: LeadConvertBody): Promise<LeadConvertReply> {
  if (b.assigned_accountant_id && !(await isActiveMember(deps.db, b.assigned_accountant_id, ['accountant'])))
    throw new AppError('VALIDATION_FAILED', CLIENT_MESSAGES.unknownAccountant);
  const result = await deps.db.transaction(async (tx) => {
    const lead = await lockLead(tx, id);
    if (!lead) throw new AppError('NOT_FOUND', LEAD_MESSAGES.notFound);
    const d = decideConversion({ stage: lead.stage, convertedClientId: lead.convertedClientId });
    if (!d.ok) throw new AppError(d.code, d.message);
    if (!lead.email) throw new AppError('VALIDATION_FAILED', NEEDS_EMAIL);
    const packageName = cleanOptional(b.package_name) ?? null;
    const client = await insertClient(tx, {
      companyName: cleanOptional(b.company_name) ?? lead.companyName ?? lead.name,
      contactName: lead.name,
      contactEmail: lead.email,
      contactPhone: lead.phone,
      businessType: b.business_type ?? lead.businessType ?? 'limited',
      packageName,
      monthlyFee: feeForPackage(packageName),
      subscriptionStatus: b.subscription_status ?? 'pending',
      assignedAccountantId: b.assigned_accountant_id ?? null,
      sourceLeadId: lead.id,
    });
    const updated = await updateLead(tx, id, { convertedClientId: client.id, updatedAt: new Date() });
    await publishClientUpserted(tx, client, actorOf(principal));
    return { lead: toLead(updated), clientId: client.id };
  });
  return { lead: result.lead, client: (await getClient(deps.db, result.clientId))! };
}
