import { AppError, londonDayStart, requireAuth, requireRole, type App } from '@countinghouse/kit';
import {
  LeadConvertBodySchema,
  LeadConvertReplySchema,
  LeadCreateBodySchema,
  LeadListQuerySchema,
  LeadListSchema,
  LeadSchema,
  LeadUpdateBodySchema,
  type LeadConvertBody,
  type LeadStage,
  rolesFor,
} from '@countinghouse/proto';
import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { cleanOptional, cleanRequired, containsPattern, feeForPackage } from '../domain/clients.js';
import { decideConversion, decideStageChange, LEAD_MESSAGES } from '../domain/leads.js';
import { getClient, isActiveMember, publishClientUpserted, toLead } from '../db/queries.js';
import { clients, leads, leadTotals } from '../db/schema.js';
import { CLIENT_MESSAGES } from './clients.js';
import { actorOf, errors, IdParams, mapDbError, pageOf, type RouteDeps } from './shared.js';

const NEEDS_EMAIL = 'Add an e-mail address to this lead before converting it into a client.';

/** Search on name, e-mail and company name (trigram indexes). */
export function leadSearch(text: string): SQL {
  const p = containsPattern(text);
  return sql`(${leads.name} ilike ${p} or ${leads.email} ilike ${p} or ${leads.companyName} ilike ${p})`;
}

export function leadRoutes(app: App, { db }: RouteDeps) {
  const guard = requireRole(rolesFor('leads.manage'));

  app.get(
    '/leads',
    {
      preHandler: guard,
      schema: {
        tags: ['crm'],
        summary: 'Leads, newest first, with search and stage/source filters',
        querystring: LeadListQuerySchema,
        response: { 200: LeadListSchema, ...errors },
      },
    },
    async (request) => {
      const q = request.query;
      const conds: SQL[] = [];
      if (q.stage) conds.push(eq(leads.stage, q.stage));
      if (q.source) conds.push(eq(leads.source, q.source));
      if (q.created_from) conds.push(gte(leads.createdAt, londonDayStart(q.created_from)));
      if (q.created_to) conds.push(lt(leads.createdAt, londonDayStart(q.created_to, 1)));
      const search = q.search?.trim();
      if (search) conds.push(leadSearch(search));
      const where = conds.length ? and(...conds) : undefined;
      const { limit, offset } = pageOf(q);
      const fromCounters = conds.length === 0 || (conds.length === 1 && q.stage);
      const totalQuery = fromCounters
        ? db
            .select({ n: sql<number>`coalesce(sum(${leadTotals.leads}), 0)::int` })
            .from(leadTotals)
            .where(q.stage ? eq(leadTotals.stage, q.stage) : undefined)
        : db
            .select({ n: sql<number>`count(*)::int` })
            .from(leads)
            .where(where);
      const [rows, total] = await Promise.all([
        db.select().from(leads).where(where).orderBy(desc(leads.createdAt), desc(leads.id)).limit(limit).offset(offset),
        totalQuery,
      ]);
      return { leads: rows.map(toLead), total: total[0]?.n ?? 0, page: q.page, page_size: q.page_size };
    },
  );

  app.get(
    '/leads/:id',
    { preHandler: guard, schema: { tags: ['crm'], summary: 'One lead', params: IdParams, response: { 200: LeadSchema, ...errors } } },
    async (request) => {
      const { id } = request.params;
      const [row] = await db.select().from(leads).where(eq(leads.id, id));
      if (!row) throw new AppError('NOT_FOUND', LEAD_MESSAGES.notFound);
      return toLead(row);
    },
  );

  app.post(
    '/leads',
    {
      preHandler: guard,
      schema: { tags: ['crm'], summary: 'Add Lead', body: LeadCreateBodySchema, response: { 201: LeadSchema, ...errors } },
    },
    async (request, reply) => {
      const b = request.body;
      try {
        const [row] = await db
          .insert(leads)
          .values({
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
          })
          .returning();
        return reply.status(201).send(toLead(row!));
      } catch (err) {
        mapDbError(err, { unique: LEAD_MESSAGES.duplicateEmail });
      }
    },
  );

  app.patch(
    '/leads/:id',
    {
      preHandler: guard,
      schema: {
        tags: ['crm'],
        summary: 'Edit a lead or move it to another stage',
        params: IdParams,
        body: LeadUpdateBodySchema,
        response: { 200: LeadSchema, ...errors },
      },
    },
    async (request) => {
      const { id } = request.params;
      const b = request.body;
      try {
        return await db.transaction(async (tx) => {
          const [cur] = await tx.select().from(leads).where(eq(leads.id, id)).for('update');
          if (!cur) throw new AppError('NOT_FOUND', LEAD_MESSAGES.notFound);
          if (b.stage !== undefined) {
            const d = decideStageChange({ stage: cur.stage as LeadStage, convertedClientId: cur.convertedClientId }, b.stage);
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
          const [row] = await tx.update(leads).set(set).where(eq(leads.id, id)).returning();
          return toLead(row!);
        });
      } catch (err) {
        mapDbError(err, { unique: LEAD_MESSAGES.duplicateEmail });
      }
    },
  );

  app.post(
    '/leads/:id/convert',
    {
      preHandler: guard,
      schema: {
        tags: ['crm'],
        summary: 'Convert a won lead into a client (once)',
        params: IdParams,
        body: LeadConvertBodySchema,
        response: { 201: LeadConvertReplySchema, ...errors },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const b = (request.body ?? {}) as LeadConvertBody;
      const p = requireAuth(request);
      if (b.assigned_accountant_id && !(await isActiveMember(db, b.assigned_accountant_id, ['accountant'])))
        throw new AppError('VALIDATION_FAILED', CLIENT_MESSAGES.unknownAccountant);
      const result = await db.transaction(async (tx) => {
        const [lead] = await tx.select().from(leads).where(eq(leads.id, id)).for('update');
        if (!lead) throw new AppError('NOT_FOUND', LEAD_MESSAGES.notFound);
        const d = decideConversion({ stage: lead.stage as LeadStage, convertedClientId: lead.convertedClientId });
        if (!d.ok) throw new AppError(d.code, d.message);
        if (!lead.email) throw new AppError('VALIDATION_FAILED', NEEDS_EMAIL);
        const packageName = cleanOptional(b.package_name) ?? null;
        const [client] = await tx
          .insert(clients)
          .values({
            companyName: cleanOptional(b.company_name) ?? lead.companyName ?? lead.name,
            contactName: lead.name,
            contactEmail: lead.email,
            contactPhone: lead.phone,
            businessType: b.business_type ?? (lead.businessType as 'limited' | null) ?? 'limited',
            packageName,
            monthlyFee: feeForPackage(packageName),
            subscriptionStatus: b.subscription_status ?? 'pending',
            assignedAccountantId: b.assigned_accountant_id ?? null,
            sourceLeadId: lead.id,
          })
          .returning();
        const [updated] = await tx
          .update(leads)
          .set({ convertedClientId: client!.id, updatedAt: new Date() })
          .where(eq(leads.id, id))
          .returning();
        await publishClientUpserted(tx, client!, actorOf(p));
        return { lead: toLead(updated!), clientId: client!.id };
      });
      return reply.status(201).send({ lead: result.lead, client: (await getClient(db, result.clientId))! });
    },
  );
}
