import type { DbOrTx } from '@countinghouse/kit';
import { ROLES, ROLE_HOLDERS_LIMIT, type Role } from '@countinghouse/proto';
import { and, asc, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import { adminUsers, outgoingMail, profiles, userRoles, users } from './schema.js';

export async function findAdminByUsername(db: DbOrTx, username: string) {
  const rows = await db
    .select()
    .from(adminUsers)
    .where(sql`lower(${adminUsers.username}) = lower(${username})`)
    .limit(1);
  return rows[0] ?? null;
}

export async function findAdminById(db: DbOrTx, id: string) {
  const rows = await db.select().from(adminUsers).where(eq(adminUsers.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function countAdmins(db: DbOrTx): Promise<number> {
  const rows = await db.select({ n: sql<number>`count(*)::int` }).from(adminUsers);
  return rows[0]?.n ?? 0;
}

export async function findUserById(db: DbOrTx, id: string) {
  const rows = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function findUserByEmail(db: DbOrTx, email: string) {
  const rows = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  return rows[0] ?? null;
}

export async function findProfile(db: DbOrTx, userId: string) {
  const rows = await db.select().from(profiles).where(eq(profiles.userId, userId)).limit(1);
  return rows[0] ?? null;
}

export async function activeRoles(db: DbOrTx, userId: string): Promise<Role[]> {
  const rows = await db
    .select({ role: userRoles.role })
    .from(userRoles)
    .where(and(eq(userRoles.userId, userId), eq(userRoles.isActive, true)));
  return rows.map((r) => r.role);
}

/** Grant a role, or re-activate a revoked grant. */
export async function grantRole(db: DbOrTx, userId: string, role: Role, grantedBy: string | null) {
  await db
    .insert(userRoles)
    .values({ userId, role, isActive: true, grantedBy })
    .onConflictDoUpdate({
      target: [userRoles.userId, userRoles.role],
      set: { isActive: true, grantedAt: sql`now()`, grantedBy, revokedAt: null },
    });
}

export interface Purged {
  adminSessions: number;
  userSessions: number;
  processedEvents: number;
  outbox: number;
}

/**
 * Delete what identity no longer needs, older than the cut-off: sign-in sessions that expired or were
 * revoked (they hold an IP address and browser: personal data, UK GDPR Art. 5(1)(e) storage
 * limitation), processed-event ids (redelivery only happens within the bus's retention, days) and
 * outbox rows already published. One transaction: all or nothing.
 */
export async function purgeExpired(db: DbOrTx, cutOff: Date): Promise<Purged> {
  return db.transaction(async (tx) => {
    const count = async (q: ReturnType<typeof sql>) => (await tx.execute(q)).rowCount ?? 0;
    const iso = cutOff.toISOString();
    return {
      adminSessions: await count(
        sql`delete from identity.admin_sessions where expires_at < ${iso}::timestamptz or revoked_at < ${iso}::timestamptz`,
      ),
      userSessions: await count(
        sql`delete from identity.user_sessions where expires_at < ${iso}::timestamptz or revoked_at < ${iso}::timestamptz`,
      ),
      processedEvents: await count(sql`delete from identity.processed_events where processed_at < ${iso}::timestamptz`),
      outbox: await count(sql`delete from identity.outbox where published_at < ${iso}::timestamptz`),
    };
  });
}

// ── sign-in and sign-up ────────────────────────────────────────────────────────────────────────────

export async function markAdminSignedIn(tx: DbOrTx, adminId: string): Promise<void> {
  await tx
    .update(adminUsers)
    .set({ lastLoginAt: sql`now()` })
    .where(eq(adminUsers.id, adminId));
}

export async function markUserSignedIn(tx: DbOrTx, userId: string): Promise<void> {
  await tx
    .update(users)
    .set({ lastLoginAt: sql`now()` })
    .where(eq(users.id, userId));
}

/** A new person's account; the unique e-mail index refuses a second one (23505). Returns the new id. */
export async function insertUserId(tx: DbOrTx, u: { email: string; passwordHash: string }): Promise<string> {
  const [row] = await tx.insert(users).values(u).returning({ id: users.id });
  return row!.id;
}

/** The same, returning the whole row. */
export async function insertUser(tx: DbOrTx, u: { email: string; passwordHash: string }) {
  const [row] = await tx.insert(users).values(u).returning();
  return row!;
}

export async function insertProfile(tx: DbOrTx, p: typeof profiles.$inferInsert): Promise<void> {
  await tx.insert(profiles).values(p);
}

/** A client's profile shows the staff role they were just given (a staff profile keeps its own). */
export async function promoteClientProfile(tx: DbOrTx, userId: string, role: Role): Promise<void> {
  await tx
    .update(profiles)
    .set({ role })
    .where(and(eq(profiles.userId, userId), eq(profiles.role, 'client')));
}

// ── roles and staff ────────────────────────────────────────────────────────────────────────────────

/**
 * Per role, the most recent grants only (the partial index on (role, granted_at) serves each), the
 * count of all active grants per role, and the active admin panel accounts.
 */
export async function roleHolders(db: DbOrTx) {
  const [perRole, counts, accounts] = await Promise.all([
    Promise.all(
      ROLES.map((role) =>
        db
          .select({ grant: userRoles, profile: profiles })
          .from(userRoles)
          .innerJoin(profiles, eq(profiles.userId, userRoles.userId))
          .where(and(eq(userRoles.isActive, true), eq(userRoles.role, role)))
          .orderBy(desc(userRoles.grantedAt), asc(profiles.email))
          .limit(ROLE_HOLDERS_LIMIT),
      ),
    ),
    db
      .select({ role: userRoles.role, n: sql<number>`count(*)::int` })
      .from(userRoles)
      .where(eq(userRoles.isActive, true))
      .groupBy(userRoles.role),
    db.select().from(adminUsers).where(eq(adminUsers.isActive, true)).orderBy(asc(adminUsers.createdAt)),
  ]);
  return { perRole, counts, accounts };
}

/** Insert a grant, or re-activate a revoked one; false when an active one already exists (it stays as it is). */
export async function grantRoleIfNotHeld(tx: DbOrTx, userId: string, role: Role, grantedBy: string | null): Promise<boolean> {
  const changed = await tx
    .insert(userRoles)
    .values({ userId, role, isActive: true, grantedBy })
    .onConflictDoUpdate({
      target: [userRoles.userId, userRoles.role],
      set: { isActive: true, grantedAt: sql`now()`, grantedBy, revokedAt: null },
      setWhere: sql`not ${userRoles.isActive}`,
    })
    .returning({ id: userRoles.id });
  return changed.length > 0;
}

/** Revoke an active grant; false when the person does not hold the role. */
export async function revokeRole(tx: DbOrTx, userId: string, role: Role): Promise<boolean> {
  const revoked = await tx
    .update(userRoles)
    .set({ isActive: false, revokedAt: sql`now()` })
    .where(and(eq(userRoles.userId, userId), eq(userRoles.role, role), eq(userRoles.isActive, true)))
    .returning({ id: userRoles.id });
  return revoked.length > 0;
}

/** Revoke every active grant of a person but the client one. */
export async function revokeStaffRoles(tx: DbOrTx, userId: string): Promise<void> {
  await tx
    .update(userRoles)
    .set({ isActive: false, revokedAt: sql`now()` })
    .where(and(eq(userRoles.userId, userId), eq(userRoles.isActive, true), ne(userRoles.role, 'client')));
}

/** Deactivate an active admin panel account; false when there is none such. */
export async function deactivateAdmin(tx: DbOrTx, adminId: string): Promise<boolean> {
  const done = await tx
    .update(adminUsers)
    .set({ isActive: false })
    .where(and(eq(adminUsers.id, adminId), eq(adminUsers.isActive, true)))
    .returning({ id: adminUsers.id });
  return done.length > 0;
}

/** Active grants of these roles with the holder's profile, by e-mail then role. */
export async function activeGrantsOf(db: DbOrTx, roles: Role[]) {
  return db
    .select({ grant: userRoles, profile: profiles })
    .from(userRoles)
    .innerJoin(profiles, eq(profiles.userId, userRoles.userId))
    .where(and(eq(userRoles.isActive, true), inArray(userRoles.role, roles)))
    .orderBy(asc(profiles.email), asc(userRoles.role));
}

// ── the user list and the outgoing mail ─────────────────────────────────────────────────────────────

/** One page of people, newest first, searched by e-mail, name or company; with the list's three counts. */
/** A person as listPeople selects them (timestamps as the driver gives them: text; the count a bigint, text too). */
type PersonDbRow = {
  user_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  company_name: string | null;
  role: Role;
  created_at: string;
  has_active_role: boolean;
  locked: boolean;
  total: string;
};

export async function listPeople(db: DbOrTx, q: { search?: string; page: number; page_size: number }) {
  const like = q.search ? `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const filter = like
    ? sql`where p.email ilike ${like} or coalesce(p.first_name,'') || ' ' || coalesce(p.last_name,'') ilike ${like} or coalesce(p.company_name,'') ilike ${like}`
    : sql``;
  const rows = await db.execute<PersonDbRow>(sql`
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
  return { rows: rows.rows, stats: stats.rows[0]! };
}

/** The last 200 e-mails sent or logged, newest first. */
export async function recentOutgoingMail(db: DbOrTx) {
  return db.select().from(outgoingMail).orderBy(desc(outgoingMail.createdAt)).limit(200);
}
