import { AppError, enqueueEvent, requireRole, type App, type Db, type Principal } from '@countinghouse/kit';
import {
  AdminAccountParamsSchema,
  GrantRoleBodySchema,
  MessageReplySchema,
  MESSAGES,
  permissionsOf,
  PersonGrantParamsSchema,
  ROLE_DESCRIPTIONS,
  ROLE_HOLDERS_LIMIT,
  ROLES,
  RoleListSchema,
  rolesFor,
  type RoleHolder,
  type RoleList,
} from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { assertAdminLeft, countActiveAdmins, lockAdmins, syncProfileRole, withdrawnRolesTakeEffect } from '../db/admins.js';
import { findUserByEmail } from '../db/queries.js';
import { adminUsers, profiles, SCHEMA, userRoles, users } from '../db/schema.js';
import type { RevocationBook } from '../db/revocations.js';
import type { SessionStore } from '../db/session-store.js';
import { displayName } from '../domain/roles.js';

const ErrorRef = Type.Ref('ErrorBody');
const errors = { 400: ErrorRef, 401: ErrorRef, 403: ErrorRef, 404: ErrorRef, 409: ErrorRef };
const guard = requireRole(rolesFor('roles'));

const actorOf = (p: Principal) => ({ kind: p.kind, id: p.id }) as const;

/** /admin/roles: the five roles, what each may do (the permissions table), who holds them; grant and revoke. */
export function roleRoutes(
  app: App,
  deps: { db: Db; userSessions: SessionStore; adminSessions: SessionStore; revocations: RevocationBook },
) {
  const { db, userSessions, adminSessions, revocations } = deps;

  app.get(
    '/roles',
    {
      preHandler: guard,
      schema: {
        tags: ['identity'],
        summary: 'Each role: its description, its permissions and the people (and admin panel accounts) holding it',
        response: { 200: RoleListSchema, 401: ErrorRef, 403: ErrorRef },
      },
    },
    async (): Promise<RoleList> => {
      // Per role, the most recent grants only (the partial index on (role, granted_at) serves each),
      // and the count of all of them.
      const [perRole, counts, accounts, activeAdmins] = await Promise.all([
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
        countActiveAdmins(db),
      ]);
      const countOf = new Map(counts.map((c) => [c.role, Number(c.n)]));
      return {
        active_admins: activeAdmins,
        roles: ROLES.map((role, i) => {
          const roleAccounts = accounts.filter((a) => a.role === role);
          const holders: RoleHolder[] = [
            ...roleAccounts.map((a) => ({
              kind: 'admin_account' as const,
              id: a.id,
              name: a.username,
              email: null,
              username: a.username,
              since: a.createdAt.toISOString(),
            })),
            ...perRole[i]!.map(({ grant, profile }) => ({
              kind: 'person' as const,
              id: grant.userId,
              name: displayName(profile),
              email: profile.email,
              username: null,
              since: grant.grantedAt.toISOString(),
            })),
          ];
          return {
            role,
            description: ROLE_DESCRIPTIONS[role],
            permissions: permissionsOf(role),
            holders,
            holder_count: roleAccounts.length + (countOf.get(role) ?? 0),
          };
        }),
      };
    },
  );

  app.post(
    '/roles/grants',
    {
      preHandler: guard,
      schema: {
        tags: ['identity'],
        summary: 'Grant a role to a registered person (by user id or e-mail); 409 if they already hold it',
        body: GrantRoleBodySchema,
        response: { 201: MessageReplySchema, ...errors },
      },
    },
    async (request, reply) => {
      const p = request.principal!;
      const body = request.body;
      const user = body.user_id
        ? ((await db.select().from(users).where(eq(users.id, body.user_id)))[0] ?? null)
        : body.email
          ? await findUserByEmail(db, body.email)
          : undefined;
      if (user === undefined) throw new AppError('BAD_REQUEST', MESSAGES.validationFailed);
      if (!user) throw new AppError('NOT_FOUND', MESSAGES.personNotFound);
      const role = body.role;
      await db.transaction(async (tx) => {
        // Insert, or re-activate a revoked grant; an active one stays as it is and nothing comes back.
        const changed = await tx
          .insert(userRoles)
          .values({ userId: user.id, role, isActive: true, grantedBy: p.kind === 'user' ? p.id : null })
          .onConflictDoUpdate({
            target: [userRoles.userId, userRoles.role],
            set: { isActive: true, grantedAt: sql`now()`, grantedBy: p.kind === 'user' ? p.id : null, revokedAt: null },
            setWhere: sql`not ${userRoles.isActive}`,
          })
          .returning({ id: userRoles.id });
        if (changed.length === 0) throw new AppError('CONFLICT', MESSAGES.roleAlreadyHeld);
        await syncProfileRole(tx, user.id);
        const profile = (await tx.select().from(profiles).where(eq(profiles.userId, user.id)))[0];
        await enqueueEvent(
          tx,
          SCHEMA,
          'identity.role_changed',
          { userId: user.id, role, isActive: true, email: profile?.email ?? user.email, name: profile ? displayName(profile) : user.email },
          { actor: actorOf(p), key: user.id },
        );
      });
      return reply.status(201).send({ success: true, message: MESSAGES.roleGranted });
    },
  );

  app.delete(
    '/roles/:role/people/:userId',
    {
      preHandler: guard,
      schema: {
        tags: ['identity'],
        summary: "Revoke a person's role; they are signed out everywhere at once and sign in again with what is left",
        params: PersonGrantParamsSchema,
        response: { 200: MessageReplySchema, ...errors },
      },
    },
    async (request) => {
      const p = request.principal!;
      const { role, userId } = request.params;
      await revocations.transaction(async (tx, revoke) => {
        if (role === 'admin') await lockAdmins(tx);
        const revoked = await tx
          .update(userRoles)
          .set({ isActive: false, revokedAt: sql`now()` })
          .where(and(eq(userRoles.userId, userId), eq(userRoles.role, role), eq(userRoles.isActive, true)))
          .returning({ id: userRoles.id });
        if (revoked.length === 0) throw new AppError('NOT_FOUND', 'This person does not hold this role.');
        if (role === 'admin') await assertAdminLeft(tx);
        await withdrawnRolesTakeEffect(tx, { sessions: userSessions, revoke, userId, roles: [role], actor: actorOf(p) });
      });
      return { success: true, message: MESSAGES.roleRevoked };
    },
  );

  app.delete(
    '/roles/admin-accounts/:adminId',
    {
      preHandler: guard,
      schema: {
        tags: ['identity'],
        summary: 'Deactivate an admin panel account (refused for the last active administrator); its sessions end at once',
        params: AdminAccountParamsSchema,
        response: { 200: MessageReplySchema, ...errors },
      },
    },
    async (request) => {
      const p = request.principal!;
      const { adminId } = request.params;
      await revocations.transaction(async (tx, revoke) => {
        await lockAdmins(tx);
        const done = await tx
          .update(adminUsers)
          .set({ isActive: false })
          .where(and(eq(adminUsers.id, adminId), eq(adminUsers.isActive, true)))
          .returning({ id: adminUsers.id });
        if (done.length === 0) throw new AppError('NOT_FOUND', 'Admin account not found');
        await assertAdminLeft(tx);
        await adminSessions.revokeAllOf(tx, adminId);
        await revoke.subject(adminId, actorOf(p));
      });
      return { success: true, message: MESSAGES.adminAccountDeactivated };
    },
  );
}
