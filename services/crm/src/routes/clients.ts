import { AppError, londonDayStart, requireAuth, requireRole, type App, type Db } from '@countinghouse/kit';
import {
  ClientCreateBodySchema,
  ClientProfileBodySchema,
  CLIENT_PROFILE_MESSAGES,
  isClientProfileComplete,
  type ClientProfileBody,
  ClientListQuerySchema,
  ClientListSchema,
  ClientSchema,
  ClientUpdateBodySchema,
  type ClientCreateBody,
  type ClientListQuery,
  type ClientUpdateBody,
  rolesFor,
} from '@countinghouse/proto';
import { and, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import { cleanOptional, cleanRequired, containsPattern, feeForPackage, packageForFilter } from '../domain/clients.js';
import { checkProfile } from '../domain/client-profile.js';
import { getClient, getClientByUserId, isActiveMember, memberName, publishClientUpserted, toClient } from '../db/queries.js';
import { clients, clientTotals } from '../db/schema.js';
import { actorOf, errors, IdParams, mapDbError, pageOf, scope, type RouteDeps } from './shared.js';

export const CLIENT_MESSAGES = {
  notFound: 'Client not found',
  userLinked: 'Another client is already linked to this user account.',
  unknownAccountant: 'Choose an accountant from the team: this person is not an active accountant.',
} as const;

/** Search on company name, contact e-mail and contact name (trigram indexes). */
export function clientSearch(text: string): SQL {
  const p = containsPattern(text);
  return sql`(${clients.companyName} ilike ${p} or ${clients.contactEmail} ilike ${p} or ${clients.contactName} ilike ${p})`;
}

async function checkAccountant(db: Db, id: string | null | undefined) {
  if (!id) return;
  if (!(await isActiveMember(db, id, ['accountant'])))
    throw new AppError('VALIDATION_FAILED', CLIENT_MESSAGES.unknownAccountant, [
      { path: 'assigned_accountant_id', message: CLIENT_MESSAGES.unknownAccountant },
    ]);
}

export function clientRoutes(app: App, { db, relay }: RouteDeps) {
  app.get(
    '/clients',
    {
      preHandler: requireRole(rolesFor('clients.view')),
      schema: {
        tags: ['crm'],
        summary: 'Client list: search, status and package filters, newest first (accountants see only their clients)',
        querystring: ClientListQuerySchema,
        response: { 200: ClientListSchema, ...errors },
      },
    },
    async (request) => {
      const q = request.query as ClientListQuery;
      const s = scope(request);
      const conds: SQL[] = [];
      if (s.kind === 'accountant') conds.push(eq(clients.assignedAccountantId, s.userId));
      if (q.assigned_accountant_id) conds.push(eq(clients.assignedAccountantId, q.assigned_accountant_id));
      if (q.status) conds.push(eq(clients.subscriptionStatus, q.status));
      if (q.package) conds.push(eq(clients.packageName, packageForFilter(q.package)));
      if (q.registered_from) conds.push(gte(clients.registrationDate, londonDayStart(q.registered_from)));
      if (q.registered_to) conds.push(lt(clients.registrationDate, londonDayStart(q.registered_to, 1)));
      const search = q.search?.trim();
      if (search) conds.push(clientSearch(search));
      const where = conds.length ? and(...conds) : undefined;
      const sortCol = q.sort === 'registration_date' ? clients.registrationDate : clients.createdAt;
      const { limit, offset } = pageOf(q);

      // Without a filter (or with the status filter alone) the exact total comes from the counters.
      const onlyStatus = conds.length === 1 && q.status && s.kind !== 'accountant';
      const totalQuery =
        conds.length === 0
          ? db.select({ n: sql<number>`coalesce(sum(${clientTotals.clients}), 0)::int` }).from(clientTotals)
          : onlyStatus
            ? db
                .select({ n: sql<number>`coalesce(sum(${clientTotals.clients}), 0)::int` })
                .from(clientTotals)
                .where(eq(clientTotals.subscriptionStatus, q.status!))
            : db
                .select({ n: sql<number>`count(*)::int` })
                .from(clients)
                .where(where);
      const [rows, total] = await Promise.all([
        db
          .select({ c: clients, accountantName: memberName(clients.assignedAccountantId) })
          .from(clients)
          .where(where)
          .orderBy(desc(sortCol), desc(clients.id))
          .limit(limit)
          .offset(offset),
        totalQuery,
      ]);
      return { clients: rows.map((r) => toClient(r.c, r.accountantName)), total: total[0]?.n ?? 0, page: q.page, page_size: q.page_size };
    },
  );

  app.get(
    '/clients/mine',
    {
      schema: {
        tags: ['crm'],
        summary: "The signed-in client's own business record",
        response: { 200: ClientSchema, ...errors },
      },
    },
    async (request) => {
      const p = requireAuth(request);
      const c = p.kind === 'user' ? await getClientByUserId(db, p.id) : null;
      if (!c) throw new AppError('NOT_FOUND', CLIENT_MESSAGES.notFound);
      return c;
    },
  );

  app.patch(
    '/clients/mine',
    {
      // Clients only, on their own record (keyed on their user id): staff edit clients through /clients/:id.
      preHandler: requireRole(['client'], { kind: 'user' }),
      schema: {
        tags: ['crm'],
        summary:
          'The signed-in client edits their own business profile: business and contact name, phone, business type, employees (never e-mail, status, package, fee or assignment)',
        body: ClientProfileBodySchema,
        response: { 200: ClientSchema, ...errors },
      },
    },
    async (request) => {
      const p = requireAuth(request);
      const { changes, errors: problems } = checkProfile(request.body as ClientProfileBody);
      if (problems.length) throw new AppError('VALIDATION_FAILED', problems[0]!.message, problems);
      await db.transaction(async (tx) => {
        const [current] = await tx.select().from(clients).where(eq(clients.userId, p.id)).for('update');
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
        const [row] = await tx
          .update(clients)
          .set({
            ...changes,
            onboardingCompleted: current.onboardingCompleted || complete,
            updatedAt: new Date(),
          })
          .where(eq(clients.id, current.id))
          .returning();
        await publishClientUpserted(tx as unknown as Db, row!, actorOf(p));
      });
      relay.kick();
      return (await getClientByUserId(db, p.id))!;
    },
  );

  app.get(
    '/clients/:id',
    {
      preHandler: requireRole(rolesFor('clients.view')),
      schema: { tags: ['crm'], summary: 'One client', params: IdParams, response: { 200: ClientSchema, ...errors } },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      const c = await getClient(db, id);
      const s = scope(request);
      // An accountant asking for someone else's client learns nothing, not even that it exists.
      if (!c || (s.kind === 'accountant' && c.assigned_accountant_id !== s.userId))
        throw new AppError('NOT_FOUND', CLIENT_MESSAGES.notFound);
      return c;
    },
  );

  app.post(
    '/clients',
    {
      preHandler: requireRole(rolesFor('clients.edit')),
      schema: {
        tags: ['crm'],
        summary: 'Add Client (the fee follows the package)',
        body: ClientCreateBodySchema,
        response: { 201: ClientSchema, ...errors },
      },
    },
    async (request, reply) => {
      const b = request.body as ClientCreateBody;
      const p = requireAuth(request);
      await checkAccountant(db, b.assigned_accountant_id);
      const packageName = cleanOptional(b.package_name) ?? null;
      let id = '';
      try {
        await db.transaction(async (tx) => {
          const [row] = await tx
            .insert(clients)
            .values({
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
            })
            .returning();
          id = row!.id;
          await publishClientUpserted(tx as unknown as Db, row!, actorOf(p));
        });
      } catch (err) {
        mapDbError(err, { unique: CLIENT_MESSAGES.userLinked });
      }
      relay.kick();
      return reply.status(201).send((await getClient(db, id))!);
    },
  );

  app.patch(
    '/clients/:id',
    {
      preHandler: requireRole(rolesFor('clients.edit')),
      schema: {
        tags: ['crm'],
        summary: 'Edit a client (changing the package changes the fee)',
        params: IdParams,
        body: ClientUpdateBodySchema,
        response: { 200: ClientSchema, ...errors },
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      const b = request.body as ClientUpdateBody;
      const p = requireAuth(request);
      if (b.assigned_accountant_id) await checkAccountant(db, b.assigned_accountant_id);
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
        await db.transaction(async (tx) => {
          const [row] = await tx.update(clients).set(set).where(eq(clients.id, id)).returning();
          if (!row) throw new AppError('NOT_FOUND', CLIENT_MESSAGES.notFound);
          await publishClientUpserted(tx as unknown as Db, row, actorOf(p));
        });
      } catch (err) {
        mapDbError(err, { unique: CLIENT_MESSAGES.userLinked });
      }
      relay.kick();
      return (await getClient(db, id))!;
    },
  );
}
