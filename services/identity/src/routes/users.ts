import { requireRole, type App, type Db } from '@countinghouse/kit';
import { OutgoingMailListSchema, rolesFor, UserListQuerySchema, UserListSchema, type Role, type UserRow } from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import { desc, sql } from 'drizzle-orm';
import { outgoingMail } from '../db/schema.js';
import type { Mailer } from '../mailer.js';

const ErrorRef = Type.Ref('ErrorBody');
// The user list holds personal data: administrators only (the spec leaves the page public).
const adminsOnly = requireRole(rolesFor('users.view'));

export function userRoutes(app: App, deps: { db: Db; mailer: Mailer }) {
  const { db, mailer } = deps;

  app.get(
    '/users',
    {
      preHandler: adminsOnly,
      schema: {
        tags: ['identity'],
        summary: 'Registered people with their role and status',
        querystring: UserListQuerySchema,
        response: { 200: UserListSchema, 401: ErrorRef, 403: ErrorRef },
      },
    },
    async (request) => {
      const q = request.query;
      const like = q.search ? `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
      const filter = like
        ? sql`where p.email ilike ${like} or coalesce(p.first_name,'') || ' ' || coalesce(p.last_name,'') ilike ${like} or coalesce(p.company_name,'') ilike ${like}`
        : sql``;
      const rows = await db.execute(sql`
        select p.user_id, p.email, p.first_name, p.last_name, p.company_name, p.role, p.created_at,
               exists (select 1 from identity.user_roles r where r.user_id = p.user_id and r.is_active) as has_active_role,
               exists (select 1 from identity.sign_in_throttle t where t.scope = 'user' and t.key = lower(p.email) and t.delay_until > now()) as locked,
               count(*) over () as total
        from identity.profiles p ${filter}
        order by p.created_at desc
        limit ${q.page_size} offset ${(q.page - 1) * q.page_size}`);
      const stats = await db.execute(sql`
        select (select count(*) from identity.profiles)::int as total_users,
               (select count(*) from identity.user_roles where role = 'client' and is_active)::int as active_clients,
               (select count(*) from identity.profiles where created_at >= date_trunc('month', now() at time zone 'Europe/London') at time zone 'Europe/London')::int as new_this_month`);
      const users: UserRow[] = rows.rows.map((r) => ({
        user_id: String(r.user_id),
        name: [r.first_name, r.last_name].filter(Boolean).join(' ') || String(r.email),
        email: String(r.email),
        company_name: (r.company_name as string | null) ?? null,
        role: ((r.role as string) || 'client') as Role,
        status: r.locked ? 'locked' : r.has_active_role ? 'active' : 'inactive',
        created_at: new Date(r.created_at as string).toISOString(),
      }));
      const s = stats.rows[0]!;
      return {
        users,
        total: Number(rows.rows[0]?.total ?? 0),
        stats: { total_users: Number(s.total_users), active_clients: Number(s.active_clients), new_this_month: Number(s.new_this_month) },
      };
    },
  );

  app.get(
    '/outgoing-mail',
    {
      preHandler: adminsOnly,
      schema: {
        tags: ['identity'],
        summary: 'E-mail the practice sent or, without SMTP, kept in the log',
        response: { 200: OutgoingMailListSchema, 401: ErrorRef, 403: ErrorRef },
      },
    },
    async () => {
      const rows = await db.select().from(outgoingMail).orderBy(desc(outgoingMail.createdAt)).limit(200);
      return {
        smtp_configured: mailer.configured,
        mail: rows.map((m) => ({
          id: m.id,
          to: m.to,
          subject: m.subject,
          body: m.body,
          transport: m.transport as 'smtp' | 'log',
          status: m.status as 'sent' | 'logged' | 'failed',
          error: m.error,
          created_at: m.createdAt.toISOString(),
        })),
      };
    },
  );
}
