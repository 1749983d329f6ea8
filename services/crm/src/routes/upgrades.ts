import { AppError, requireAuth, requireRole, type App, type Db } from '@countinghouse/kit';
import {
  ClientUpgradeSchema,
  UpgradeCreateBodySchema,
  UpgradeListQuerySchema,
  UpgradeListSchema,
  UpgradeUpdateBodySchema,
  type UpgradeCreateBody,
  type UpgradeListQuery,
  type UpgradeStatus,
  type UpgradeUpdateBody,
  rolesFor,
} from '@countinghouse/proto';
import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { cleanOptional, cleanRequired, feeForPackage } from '../domain/clients.js';
import { canMoveUpgrade, UPGRADE_MESSAGES, upgradeTransitionMessage } from '../domain/upgrades.js';
import { publishClientUpserted, toUpgrade } from '../db/queries.js';
import { clients, clientUpgrades } from '../db/schema.js';
import { CLIENT_MESSAGES } from './clients.js';
import { actorOf, errors, IdParams, pageOf, type RouteDeps } from './shared.js';

async function loadUpgrade(db: Db, id: string) {
  const rows = await db
    .select({ u: clientUpgrades, company: clients.companyName })
    .from(clientUpgrades)
    .innerJoin(clients, eq(clients.id, clientUpgrades.clientId))
    .where(eq(clientUpgrades.id, id));
  return rows[0] ? toUpgrade(rows[0].u, rows[0].company) : null;
}

export function upgradeRoutes(app: App, { db, relay }: RouteDeps) {
  const guard = requireRole(rolesFor('upgrades.manage'));

  app.get(
    '/upgrades',
    {
      preHandler: guard,
      schema: {
        tags: ['crm'],
        summary: 'Package upgrade requests, newest first',
        querystring: UpgradeListQuerySchema,
        response: { 200: UpgradeListSchema, ...errors },
      },
    },
    async (request) => {
      const q = request.query as UpgradeListQuery;
      const conds: SQL[] = [];
      if (q.status) conds.push(eq(clientUpgrades.status, q.status));
      if (q.client_id) conds.push(eq(clientUpgrades.clientId, q.client_id));
      const where = conds.length ? and(...conds) : undefined;
      const { limit, offset } = pageOf(q);
      const [rows, total] = await Promise.all([
        db
          .select({ u: clientUpgrades, company: clients.companyName })
          .from(clientUpgrades)
          .innerJoin(clients, eq(clients.id, clientUpgrades.clientId))
          .where(where)
          .orderBy(desc(clientUpgrades.requestedAt), desc(clientUpgrades.id))
          .limit(limit)
          .offset(offset),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(clientUpgrades)
          .where(where),
      ]);
      return { upgrades: rows.map((r) => toUpgrade(r.u, r.company)), total: total[0]?.n ?? 0, page: q.page, page_size: q.page_size };
    },
  );

  app.get(
    '/upgrades/:id',
    {
      preHandler: guard,
      schema: { tags: ['crm'], summary: 'One upgrade', params: IdParams, response: { 200: ClientUpgradeSchema, ...errors } },
    },
    async (request) => {
      const u = await loadUpgrade(db, (request.params as { id: string }).id);
      if (!u) throw new AppError('NOT_FOUND', UPGRADE_MESSAGES.notFound);
      return u;
    },
  );

  app.post(
    '/upgrades',
    {
      preHandler: guard,
      schema: {
        tags: ['crm'],
        summary: "Request a change of a client's package",
        body: UpgradeCreateBodySchema,
        response: { 201: ClientUpgradeSchema, ...errors },
      },
    },
    async (request, reply) => {
      const b = request.body as UpgradeCreateBody;
      const toPackage = cleanRequired(b.to_package);
      const id = await db.transaction(async (tx) => {
        const [client] = await tx.select().from(clients).where(eq(clients.id, b.client_id)).for('update');
        if (!client)
          throw new AppError('VALIDATION_FAILED', CLIENT_MESSAGES.notFound, [{ path: 'client_id', message: CLIENT_MESSAGES.notFound }]);
        if (client.packageName === toPackage) throw new AppError('VALIDATION_FAILED', UPGRADE_MESSAGES.samePackage);
        const open = await tx
          .select({ id: clientUpgrades.id })
          .from(clientUpgrades)
          .where(and(eq(clientUpgrades.clientId, client.id), inArray(clientUpgrades.status, ['pending', 'approved'])));
        if (open.length > 0) throw new AppError('CONFLICT', UPGRADE_MESSAGES.inProgress);
        const [row] = await tx
          .insert(clientUpgrades)
          .values({ clientId: client.id, fromPackage: client.packageName, toPackage, notes: cleanOptional(b.notes) ?? null })
          .returning({ id: clientUpgrades.id });
        return row!.id;
      });
      return reply.status(201).send((await loadUpgrade(db, id))!);
    },
  );

  app.patch(
    '/upgrades/:id',
    {
      preHandler: guard,
      schema: {
        tags: ['crm'],
        summary: 'Approve, reject or complete an upgrade; completing moves the client to the new package',
        params: IdParams,
        body: UpgradeUpdateBodySchema,
        response: { 200: ClientUpgradeSchema, ...errors },
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      const b = request.body as UpgradeUpdateBody;
      const p = requireAuth(request);
      let published = false;
      await db.transaction(async (tx) => {
        const [cur] = await tx.select().from(clientUpgrades).where(eq(clientUpgrades.id, id)).for('update');
        if (!cur) throw new AppError('NOT_FOUND', UPGRADE_MESSAGES.notFound);
        const from = cur.status as UpgradeStatus;
        const set: Partial<typeof clientUpgrades.$inferInsert> = {};
        if (b.notes !== undefined) set.notes = cleanOptional(b.notes) ?? null;
        if (b.status !== undefined && b.status !== from) {
          if (!canMoveUpgrade(from, b.status)) throw new AppError('CONFLICT', upgradeTransitionMessage(from, b.status));
          set.status = b.status;
          set.decidedAt = new Date();
          set.decidedBy = p.id;
          if (b.status === 'completed') {
            const [client] = await tx
              .update(clients)
              .set({ packageName: cur.toPackage, monthlyFee: feeForPackage(cur.toPackage), updatedAt: new Date() })
              .where(eq(clients.id, cur.clientId))
              .returning();
            await publishClientUpserted(tx as unknown as Db, client!, actorOf(p));
            published = true;
          }
        }
        if (Object.keys(set).length > 0) await tx.update(clientUpgrades).set(set).where(eq(clientUpgrades.id, id));
      });
      if (published) relay.kick();
      return (await loadUpgrade(db, id))!;
    },
  );
}
