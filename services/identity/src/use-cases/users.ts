import type { Db, Principal } from '@countinghouse/kit';
import type { OutgoingMailListSchema, UserList, UserListQuerySchema, UserRow } from '@countinghouse/proto';
import type { Static } from '@sinclair/typebox';
import { listPeople, recentOutgoingMail } from '../db/queries.js';
import type { Mailer } from '../adapters/mailer.js';

export interface UserDeps {
  db: Db;
  mailer: Mailer;
}

/** Registered people with their role and status, one page, with the list's counts. */
export async function findUsers(
  deps: Pick<UserDeps, 'db'>,
  _principal: Principal,
  q: Static<typeof UserListQuerySchema>,
): Promise<UserList> {
  const { rows, stats: s } = await listPeople(deps.db, q);
  const users: UserRow[] = rows.map((r) => ({
    user_id: String(r.user_id),
    name: [r.first_name, r.last_name].filter(Boolean).join(' ') || String(r.email),
    email: String(r.email),
    company_name: r.company_name ?? null,
    role: r.role || 'client',
    status: r.locked ? 'locked' : r.has_active_role ? 'active' : 'inactive',
    created_at: new Date(r.created_at).toISOString(),
  }));
  return {
    users,
    total: Number(rows[0]?.total ?? 0),
    stats: { total_users: Number(s.total_users), active_clients: Number(s.active_clients), new_this_month: Number(s.new_this_month) },
  };
}

/** E-mail the practice sent or, without SMTP, kept in the log (the last 200). */
export async function findOutgoingMail(deps: UserDeps, _principal: Principal): Promise<Static<typeof OutgoingMailListSchema>> {
  const rows = await recentOutgoingMail(deps.db);
  return {
    smtp_configured: deps.mailer.configured,
    mail: rows.map((m) => ({
      id: m.id,
      to: m.to,
      subject: m.subject,
      body: m.body,
      transport: m.transport,
      status: m.status,
      error: m.error,
      created_at: m.createdAt.toISOString(),
    })),
  };
}
