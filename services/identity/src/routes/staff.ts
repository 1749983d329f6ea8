import { AppError, requireRole, type App, type Db } from '@countinghouse/kit';
import { MessageReplySchema, MESSAGES, rolesFor, StaffListSchema, type Role } from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import { assertAdminLeft, lockAdmins, withdrawnRolesTakeEffect } from '../db/admins.js';
import { activeRoles } from '../db/queries.js';
import { profiles, userRoles } from '../db/schema.js';
import type { RevocationBook } from '../db/revocations.js';
import type { SessionStore } from '../db/session-store.js';
import { canManage } from '../domain/roles.js';

const STAFF_ROLES: Role[] = ['admin', 'manager', 'staff', 'accountant'];
const ErrorRef = Type.Ref('ErrorBody');

export function staffRoutes(app: App, deps: { db: Db; sessions: SessionStore; revocations: RevocationBook }) {
  const { db, sessions, revocations } = deps;

  app.get(
    '/staff',
    {
      preHandler: requireRole(rolesFor('staff.manage')),
      schema: { tags: ['identity'], summary: 'Active staff members', response: { 200: StaffListSchema, 401: ErrorRef, 403: ErrorRef } },
    },
    async () => {
      const rows = await db
        .select({ grant: userRoles, profile: profiles })
        .from(userRoles)
        .innerJoin(profiles, eq(profiles.userId, userRoles.userId))
        .where(and(eq(userRoles.isActive, true), inArray(userRoles.role, STAFF_ROLES)))
        .orderBy(asc(profiles.email), asc(userRoles.role));
      return {
        staff: rows.map(({ grant, profile }) => ({
          id: grant.id,
          user_id: grant.userId,
          email: profile.email,
          first_name: profile.firstName,
          last_name: profile.lastName,
          role: grant.role as Role,
          is_active: grant.isActive,
          granted_at: grant.grantedAt.toISOString(),
        })),
      };
    },
  );

  app.post(
    '/staff/:userId/deactivate',
    {
      preHandler: requireRole(rolesFor('staff.manage')),
      schema: {
        tags: ['identity'],
        summary: 'Deactivate a staff member: their staff roles end and their open sessions lose access at once',
        params: Type.Object({ userId: Type.String({ format: 'uuid' }) }),
        response: { 200: MessageReplySchema, 403: ErrorRef, 404: ErrorRef },
      },
    },
    async (request) => {
      const p = request.principal!;
      const { userId } = request.params;
      if (p.kind === 'user' && p.id === userId) throw new AppError('CONFLICT', 'You cannot deactivate yourself.');
      const targetRoles = await activeRoles(db, userId);
      const staffRoles = targetRoles.filter((r) => STAFF_ROLES.includes(r));
      if (staffRoles.length === 0) throw new AppError('NOT_FOUND', 'Staff member not found');
      if (!canManage(p.roles, targetRoles)) throw new AppError('FORBIDDEN', 'Only an administrator can deactivate an administrator.');
      // The revocation takes effect in this process before the answer (revocations.transaction).
      await revocations.transaction(async (tx, revoke) => {
        // Deactivating an administrator must leave one (the last-admin rule, same lock as /roles).
        if (staffRoles.includes('admin')) await lockAdmins(tx);
        await tx
          .update(userRoles)
          .set({ isActive: false, revokedAt: sql`now()` })
          .where(and(eq(userRoles.userId, userId), eq(userRoles.isActive, true), ne(userRoles.role, 'client')));
        if (staffRoles.includes('admin')) await assertAdminLeft(tx);
        await withdrawnRolesTakeEffect(tx, { sessions, revoke, userId, roles: staffRoles, actor: { kind: p.kind, id: p.id } });
      });
      return { success: true, message: MESSAGES.staffDeactivated };
    },
  );
}
