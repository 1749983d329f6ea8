import { AppError, requireAuth, requireRole, type App } from '@countinghouse/kit';
import {
  CommunicationCreateBodySchema,
  CommunicationListQuerySchema,
  CommunicationListSchema,
  CommunicationSchema,
  rolesFor,
} from '@countinghouse/proto';
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { cleanOptional, cleanRequired, containsPattern } from '../domain/clients.js';
import { toCommunication } from '../db/queries.js';
import { clients, communications } from '../db/schema.js';
import { CLIENT_MESSAGES } from './clients.js';
import { errors, IdParams, pageOf, type RouteDeps } from './shared.js';

const NOT_FOUND = 'Communication not found';

export function communicationRoutes(app: App, { db }: RouteDeps) {
  const guard = requireRole(rolesFor('communications.manage'));
  const select = () =>
    db
      .select({ m: communications, company: clients.companyName })
      .from(communications)
      .innerJoin(clients, eq(clients.id, communications.clientId));

  app.get(
    '/communications',
    {
      preHandler: guard,
      schema: {
        tags: ['crm'],
        summary: 'Communications with clients, newest first',
        querystring: CommunicationListQuerySchema,
        response: { 200: CommunicationListSchema, ...errors },
      },
    },
    async (request) => {
      const q = request.query;
      const conds: SQL[] = [];
      if (q.client_id) conds.push(eq(communications.clientId, q.client_id));
      if (q.channel) conds.push(eq(communications.channel, q.channel));
      if (q.direction) conds.push(eq(communications.direction, q.direction));
      if (q.search?.trim()) conds.push(sql`${communications.subject} ilike ${containsPattern(q.search)}`);
      const where = conds.length ? and(...conds) : undefined;
      const { limit, offset } = pageOf(q);
      const [rows, total] = await Promise.all([
        select().where(where).orderBy(desc(communications.occurredAt), desc(communications.id)).limit(limit).offset(offset),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(communications)
          .where(where),
      ]);
      return {
        communications: rows.map((r) => toCommunication(r.m, r.company)),
        total: total[0]?.n ?? 0,
        page: q.page,
        page_size: q.page_size,
      };
    },
  );

  app.get(
    '/communications/:id',
    {
      preHandler: guard,
      schema: { tags: ['crm'], summary: 'One communication', params: IdParams, response: { 200: CommunicationSchema, ...errors } },
    },
    async (request) => {
      const [r] = await select().where(eq(communications.id, request.params.id));
      if (!r) throw new AppError('NOT_FOUND', NOT_FOUND);
      return toCommunication(r.m, r.company);
    },
  );

  app.post(
    '/communications',
    {
      preHandler: guard,
      schema: {
        tags: ['crm'],
        summary: 'Log a call, e-mail, meeting, letter or portal message with a client',
        body: CommunicationCreateBodySchema,
        response: { 201: CommunicationSchema, ...errors },
      },
    },
    async (request, reply) => {
      const b = request.body;
      const p = requireAuth(request);
      const [client] = await db.select({ company: clients.companyName }).from(clients).where(eq(clients.id, b.client_id));
      if (!client)
        throw new AppError('VALIDATION_FAILED', CLIENT_MESSAGES.notFound, [{ path: 'client_id', message: CLIENT_MESSAGES.notFound }]);
      const [row] = await db
        .insert(communications)
        .values({
          clientId: b.client_id,
          channel: b.channel,
          direction: b.direction,
          subject: cleanRequired(b.subject),
          body: cleanOptional(b.body) ?? null,
          occurredAt: b.occurred_at ? new Date(b.occurred_at) : undefined,
          createdBy: p.id,
        })
        .returning();
      return reply.status(201).send(toCommunication(row!, client.company));
    },
  );
}
