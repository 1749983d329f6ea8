import { AppError, enqueueEvent, type DbOrTx } from '@countinghouse/kit';
import { MESSAGES, type Role } from '@countinghouse/proto';
import { and, eq, sql } from 'drizzle-orm';
import { displayName } from '../domain/roles.js';
import { profiles, SCHEMA, userRoles } from './schema.js';
import { cancelInvitationsSentBy } from './leavers.js';
import { spendOutstandingResets } from './password-resets.js';
import type { Revoker } from './revocations.js';
import type { SessionStore } from './session-store.js';

/**
 * Active administrators: active admin panel accounts whose role is admin, plus people with an active
 * admin grant (docs/decisions.md, the last-admin rule).
 */
export async function countActiveAdmins(tx: DbOrTx): Promise<number> {
  const res = await tx.execute(sql`
    select (select count(*) from identity.admin_users where is_active and role = 'admin')::int
         + (select count(distinct user_id) from identity.user_roles where is_active and role = 'admin')::int as n`);
  return Number(res.rows[0]?.n ?? 0);
}

/**
 * The one lock every transaction that may remove an administrator takes first, so two admins removing
 * each other at the same moment run one after the other and the second sees the first's commit.
 */
export async function lockAdmins(tx: DbOrTx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('identity.active_admins'))`);
}

/** After the removal, inside the same (locked) transaction: refuse, rolling it back, if no admin is left. */
export async function assertAdminLeft(tx: DbOrTx): Promise<void> {
  if ((await countActiveAdmins(tx)) < 1) throw new AppError('CONFLICT', MESSAGES.lastAdminRefused);
}

/**
 * Highest first: the role the user list shows for a person (profiles.role). The MLRO is usually held
 * beside a staff role, which then shows; held alone (or beside accountant or client) it shows as MLRO.
 */
export const PROFILE_ROLE_RANK: readonly Role[] = ['admin', 'manager', 'staff', 'mlro', 'accountant', 'client'];

/** Keep profiles.role (the role the user list shows) in step with the person's active grants. */
export async function syncProfileRole(tx: DbOrTx, userId: string): Promise<void> {
  const rows = await tx
    .select({ role: userRoles.role })
    .from(userRoles)
    .where(and(eq(userRoles.userId, userId), eq(userRoles.isActive, true)));
  const held = new Set(rows.map((r) => r.role));
  const best = PROFILE_ROLE_RANK.find((r) => held.has(r)) ?? 'client';
  await tx.update(profiles).set({ role: best }).where(eq(profiles.userId, userId));
}

/**
 * After roles were withdrawn inside `tx` (a revoke on /roles, a staff deactivation): the profile's role
 * follows what is left, every session of the person ends, every token issued so far is refused by
 * every service (this process once the transaction commits, the others by event; a new sign-in gets
 * the current roles), and each withdrawn role is announced.
 */
export async function withdrawnRolesTakeEffect(
  tx: DbOrTx,
  o: { sessions: SessionStore; revoke: Revoker; userId: string; roles: readonly Role[]; actor: { kind: 'admin' | 'user'; id: string } },
): Promise<void> {
  const { sessions, userId, roles, actor } = o;
  await syncProfileRole(tx, userId);
  await sessions.revokeAllOf(tx, userId);
  // Every other bearer secret goes too (issue 32): the invitations they sent that their remaining roles
  // no longer cover, their unspent reset links, and (through identity.subject_access_revoked, which
  // deadlines consumes) their calendar feed.
  const left = await tx.execute<{ role: Role }>(
    sql`select role from identity.user_roles where user_id = ${userId} and is_active and role <> 'client'`,
  );
  const remaining = left.rows.map((r) => r.role);
  await cancelInvitationsSentBy(tx, { kind: 'user', id: userId, isActive: remaining.length > 0, roles: remaining });
  await spendOutstandingResets(tx, userId);
  await o.revoke.subject(userId, actor);
  const profile = (await tx.select().from(profiles).where(eq(profiles.userId, userId)))[0];
  for (const role of roles) {
    await enqueueEvent(
      tx,
      SCHEMA,
      'identity.role_changed',
      { userId, role, isActive: false, email: profile?.email ?? '', name: profile ? displayName(profile) : '' },
      { actor, key: userId },
    );
  }
}
