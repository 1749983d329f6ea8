import type { DbOrTx } from '@countinghouse/kit';
import type { Role, StillReachable } from '@countinghouse/proto';
import { sql } from 'drizzle-orm';
import { inviterStillAllows } from '../domain/invitations.js';

/**
 * The pending invitations `inviter` sent that their authority no longer covers (all of them once they
 * hold no role, or once an admin panel account is deactivated) are cancelled: a leaver's links die
 * with them, not only at acceptance. Returns the ids cancelled.
 */
export async function cancelInvitationsSentBy(
  tx: DbOrTx,
  inviter: { kind: 'admin' | 'user'; id: string; isActive: boolean; roles: readonly Role[] },
): Promise<string[]> {
  const res = await tx.execute<{ id: string; role: Role }>(sql`
    select id, role from identity.staff_invitations
     where invited_by = ${inviter.id} and invited_by_kind = ${inviter.kind} and status = 'pending' for update`);
  const ids = res.rows
    .filter((r) => !inviterStillAllows({ isActive: inviter.isActive, roles: inviter.roles }, r.role))
    .map((r) => String(r.id));
  if (ids.length > 0)
    await tx.execute(sql`
      update identity.staff_invitations set status = 'cancelled', cancelled_at = now()
       where id in (${sql.join(
         ids.map((id) => sql`${id}::uuid`),
         sql`, `,
       )})`);
  return ids;
}

/** A timestamp as the driver gives it (text), in ISO form. */
const iso = (v: string) => new Date(v).toISOString();

/**
 * What a person can still reach: active roles other than client, live sessions (each holds a refresh
 * token), pending invitations they sent, unspent password reset links, and bearer secrets other
 * services reported (calendar feeds). Ids and dates only, never a secret.
 */
export async function stillReachable(db: DbOrTx, userId: string): Promise<StillReachable> {
  const [roles, sessions, invitations, resets, outside] = await Promise.all([
    db.execute<{ role: string; granted_at: string }>(
      sql`select role, granted_at from identity.user_roles where user_id = ${userId} and is_active and role <> 'client' order by role`,
    ),
    db.execute<{
      id: string;
      created_at: string;
      last_used_at: string;
      expires_at: string;
      ip: string | null;
      user_agent: string | null;
    }>(sql`
      select id, created_at, last_used_at, expires_at, ip, user_agent from identity.user_sessions
       where user_id = ${userId} and revoked_at is null and expires_at > now() order by created_at`),
    db.execute<{ id: string; email: string; role: string; expires_at: string }>(sql`
      select id, email, role, expires_at from identity.staff_invitations
       where invited_by = ${userId} and invited_by_kind = 'user' and status = 'pending' and expires_at > now() order by created_at`),
    db.execute<{ created_at: string; expires_at: string }>(sql`
      select created_at, expires_at from identity.password_resets
       where user_id = ${userId} and used_at is null and expires_at > now() order by created_at`),
    db.execute<{ service: string; kind: string; since: string }>(
      sql`select service, kind, since from identity.outside_secrets where principal_id = ${userId} order by service, kind`,
    ),
  ]);
  const r: StillReachable = {
    user_id: userId,
    roles: roles.rows.map((x) => ({ role: String(x.role), granted_at: iso(x.granted_at) })),
    sessions: sessions.rows.map((x) => ({
      id: String(x.id),
      created_at: iso(x.created_at),
      last_used_at: iso(x.last_used_at),
      expires_at: iso(x.expires_at),
      ip: x.ip == null ? null : String(x.ip),
      user_agent: x.user_agent == null ? null : String(x.user_agent),
    })),
    invitations_sent: invitations.rows.map((x) => ({
      id: String(x.id),
      email: String(x.email),
      role: String(x.role),
      expires_at: iso(x.expires_at),
    })),
    password_reset_links: resets.rows.map((x) => ({ created_at: iso(x.created_at), expires_at: iso(x.expires_at) })),
    calendar_feeds: outside.rows
      .filter((x) => x.kind === 'calendar_feed')
      .map((x) => ({ service: String(x.service), since: iso(x.since) })),
    nothing_left: false,
  };
  r.nothing_left =
    r.roles.length + r.sessions.length + r.invitations_sent.length + r.password_reset_links.length + r.calendar_feeds.length === 0;
  return r;
}
