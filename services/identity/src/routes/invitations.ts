import { AppError, enqueueEvent, requireRole, type App, type Db, type Principal } from '@countinghouse/kit';
import {
  AcceptInviteBodySchema,
  canInviteTo,
  invitableRolesFor,
  InvitationListQuerySchema,
  InvitationListSchema,
  InvitationLookupSchema,
  InvitationSchema,
  InvitationWithLinkSchema,
  InviteBodySchema,
  MessageReplySchema,
  MESSAGES,
  rolesFor,
  type Invitation,
  type InvitationWithLink,
  type Role,
} from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { activeRoles, findUserByEmail, grantRole } from '../db/queries.js';
import { adminUsers, profiles, SCHEMA, staffInvitations, userRoles, users } from '../db/schema.js';
import { effectiveStatus, invitationEmail, invitationExpiry, inviterStillAllows, inviteUrl } from '../domain/invitations.js';
import { normaliseEmail } from '../domain/roles.js';
import { hashToken, newOpaqueToken } from '../domain/tokens.js';
import type { Mailer } from '../mailer.js';
import { hashPassword, passwordProblem, verifyPassword } from '../passwords.js';

export interface InvitationDeps {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  practiceName: () => string;
}

const ErrorRef = Type.Ref('ErrorBody');
const manage = requireRole(rolesFor('staff.manage'));
type Row = typeof staffInvitations.$inferSelect;
type Exec = Pick<Db, 'execute'>;
const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

/** Nobody invites to, sees, re-sends or cancels an invitation for a role above their own (INVITE_HIERARCHY). */
function assertMayInviteTo(p: Principal, role: string) {
  if (!canInviteTo(p.roles, role as Role)) throw new AppError('FORBIDDEN', MESSAGES.inviteRoleNotAllowed);
}

/**
 * The inviter as they are now, their rows locked against a concurrent revoke until the acceptance
 * commits: an admin panel account (its role, whether active) or a person (their active grants).
 */
async function inviterNow(tx: Exec, inv: Row): Promise<{ isActive: boolean; roles: Role[] } | null> {
  if (!inv.invitedBy) return null;
  if (inv.invitedByKind === 'admin') {
    const res = await tx.execute(sql`select role, is_active from ${adminUsers} where id = ${inv.invitedBy} for share`);
    const a = res.rows[0];
    return a ? { isActive: Boolean(a.is_active), roles: [a.role as Role] } : null;
  }
  const res = await tx.execute(sql`select role from ${userRoles} where user_id = ${inv.invitedBy} and is_active for share`);
  const roles = res.rows.map((r) => r.role as Role);
  return { isActive: roles.length > 0, roles };
}

export function invitationRoutes(app: App, deps: InvitationDeps) {
  const { db, mailer } = deps;

  function toInvitation(r: Row): Invitation {
    const status = effectiveStatus(r.status, r.expiresAt);
    return {
      id: r.id,
      email: r.email,
      role: r.role as Invitation['role'],
      invited_by: r.invitedBy,
      invited_by_name: r.invitedByName,
      status,
      expires_at: r.expiresAt.toISOString(),
      created_at: r.createdAt.toISOString(),
      delivery: (r.delivery as Invitation['delivery']) ?? null,
    };
  }

  const actorOf = (p: Principal) => ({ kind: p.kind, id: p.id }) as const;

  /** E-mail a fresh link and record how it went; the answer carries the link, once, for its creator. */
  async function deliver(row: Row, token: string): Promise<InvitationWithLink> {
    const url = inviteUrl(deps.publicUrl, token);
    const mail = invitationEmail({ practiceName: deps.practiceName(), role: row.role, url, expiresAt: row.expiresAt });
    const delivery = await mailer.send({ to: row.email, ...mail, secret: url });
    const [updated] = await db.update(staffInvitations).set({ delivery }).where(eq(staffInvitations.id, row.id)).returning();
    return { ...toInvitation(updated!), invite_url: url };
  }

  /** An invitation the caller may act on: 404 when there is none, 403 when its role is above theirs. */
  async function invitationFor(p: Principal, id: string): Promise<Row> {
    const [r] = await db.select().from(staffInvitations).where(eq(staffInvitations.id, id)).limit(1);
    if (!r) throw new AppError('NOT_FOUND', 'Invitation not found');
    assertMayInviteTo(p, r.role);
    return r;
  }

  app.post(
    '/invitations',
    {
      preHandler: manage,
      schema: {
        tags: ['identity'],
        summary: 'Invite a staff member by e-mail and role',
        body: InviteBodySchema,
        response: { 201: InvitationWithLinkSchema, 400: ErrorRef, 403: ErrorRef, 409: ErrorRef },
      },
    },
    async (request, reply) => {
      const p = request.principal!;
      const body = request.body;
      const email = normaliseEmail(body.email);
      assertMayInviteTo(p, body.role);
      const existing = await findUserByEmail(db, email);
      if (existing && (await activeRoles(db, existing.id)).includes(body.role as Role))
        throw new AppError('CONFLICT', `${email} already has the ${body.role} role.`);
      const token = newOpaqueToken();
      const row = await db.transaction(async (tx) => {
        // One pending invitation per e-mail: a new one replaces the old, whose link stops working; but
        // replacing one is cancelling it, which nobody may do to an invitation above their own rank.
        const replaced = await tx
          .select({ role: staffInvitations.role, expiresAt: staffInvitations.expiresAt })
          .from(staffInvitations)
          .where(and(sql`lower(${staffInvitations.email}) = ${email}`, eq(staffInvitations.status, 'pending')))
          .for('update');
        // (an expired one is dead already: replacing it takes nothing from anyone)
        if (replaced.some((r) => r.expiresAt > new Date() && !canInviteTo(p.roles, r.role as Role)))
          throw new AppError('FORBIDDEN', MESSAGES.inviteReplacesHigherRole);
        await tx
          .update(staffInvitations)
          .set({ status: 'cancelled', cancelledAt: sql`now()` })
          .where(and(sql`lower(${staffInvitations.email}) = ${email}`, eq(staffInvitations.status, 'pending')));
        const [r] = await tx
          .insert(staffInvitations)
          .values({
            email,
            role: body.role,
            invitedBy: p.id,
            invitedByKind: p.kind,
            invitedByName: p.name || null,
            expiresAt: invitationExpiry(),
            inviteTokenHash: hashToken(token),
          })
          .returning();
        await enqueueEvent(
          tx,
          SCHEMA,
          'identity.invitation_created',
          { invitationId: r!.id, email, role: body.role, expiresAt: r!.expiresAt.toISOString() },
          { actor: actorOf(p), key: r!.id },
        );
        return r!;
      });
      return reply.status(201).send(await deliver(row, token));
    },
  );

  app.get(
    '/invitations',
    {
      preHandler: manage,
      schema: {
        tags: ['identity'],
        summary: 'Invitations to the roles the caller may invite to, newest first (never their links)',
        querystring: InvitationListQuerySchema,
        response: { 200: InvitationListSchema, 400: ErrorRef, 401: ErrorRef, 403: ErrorRef },
      },
    },
    async (request) => {
      const p = request.principal!;
      const q = request.query;
      if (q.role) assertMayInviteTo(p, q.role);
      const visible = q.role ? [q.role] : invitableRolesFor(p.roles);
      const rows =
        visible.length === 0
          ? []
          : await db
              .select()
              .from(staffInvitations)
              .where(inArray(staffInvitations.role, visible))
              .orderBy(desc(staffInvitations.createdAt))
              .limit(500);
      return { invitations: rows.map(toInvitation), smtp_configured: mailer.configured };
    },
  );

  app.post(
    '/invitations/:id/resend',
    {
      preHandler: manage,
      schema: {
        tags: ['identity'],
        summary: 'Re-send a pending (or expired) invitation: a fresh link for another full term; the old link stops working',
        params: IdParams,
        response: { 200: InvitationWithLinkSchema, 403: ErrorRef, 404: ErrorRef, 409: ErrorRef },
      },
    },
    async (request) => {
      const p = request.principal!;
      const { id } = request.params;
      await invitationFor(p, id);
      const token = newOpaqueToken();
      // The re-sender vouches for the new link: acceptance checks their rank from now on.
      const [row] = await db
        .update(staffInvitations)
        .set({
          inviteTokenHash: hashToken(token),
          expiresAt: invitationExpiry(),
          invitedBy: p.id,
          invitedByKind: p.kind,
          invitedByName: p.name || null,
          delivery: null,
        })
        .where(and(eq(staffInvitations.id, id), eq(staffInvitations.status, 'pending')))
        .returning();
      if (!row) throw new AppError('CONFLICT', 'Only a pending or expired invitation can be re-sent.');
      return deliver(row, token);
    },
  );

  app.post(
    '/invitations/:id/cancel',
    {
      preHandler: manage,
      schema: {
        tags: ['identity'],
        summary: 'Cancel a pending invitation',
        params: IdParams,
        response: { 200: InvitationSchema, 403: ErrorRef, 404: ErrorRef, 409: ErrorRef },
      },
    },
    async (request) => {
      const { id } = request.params;
      await invitationFor(request.principal!, id);
      const [r] = await db
        .update(staffInvitations)
        .set({ status: 'cancelled', cancelledAt: sql`now()` })
        .where(and(eq(staffInvitations.id, id), eq(staffInvitations.status, 'pending'), sql`${staffInvitations.expiresAt} > now()`))
        .returning();
      if (r) return toInvitation(r);
      throw new AppError('CONFLICT', 'Only a pending invitation can be cancelled.');
    },
  );

  app.get(
    '/invitations/lookup',
    {
      schema: {
        tags: ['identity'],
        summary: 'Check an invitation link (public: the staff sign-up page)',
        querystring: Type.Object({ token: Type.Optional(Type.String({ maxLength: 200 })) }),
        response: { 200: InvitationLookupSchema },
      },
    },
    async (request) => {
      const { token } = request.query;
      const none = { valid: false, email: null, role: null, expires_at: null };
      if (!token) return { ...none, message: MESSAGES.noInvitationToken };
      const rows = await db
        .select()
        .from(staffInvitations)
        .where(eq(staffInvitations.inviteTokenHash, hashToken(token)))
        .limit(1);
      const r = rows[0];
      if (!r || r.status !== 'pending') return { ...none, message: MESSAGES.invalidOrExpiredInvitation };
      if (r.expiresAt <= new Date()) return { ...none, message: MESSAGES.invitationExpired };
      if (!inviterStillAllows(await inviterNow(db, r), r.role as Role)) return { ...none, message: MESSAGES.inviterNoLongerAllowed };
      return { valid: true, message: null, email: r.email, role: r.role as Invitation['role'], expires_at: r.expiresAt.toISOString() };
    },
  );

  app.post(
    '/invitations/accept',
    {
      schema: {
        tags: ['identity'],
        summary: 'Accept an invitation (accept-staff-invite): creates the account or adds the role to an existing one',
        body: AcceptInviteBodySchema,
        response: { 200: MessageReplySchema, 400: ErrorRef, 401: ErrorRef, 410: ErrorRef },
      },
    },
    async (request) => {
      const body = request.body;
      if (!body.token) throw new AppError('BAD_REQUEST', MESSAGES.noInvitationToken);
      if (body.confirm_password !== undefined && body.confirm_password !== body.password)
        throw new AppError('VALIDATION_FAILED', MESSAGES.passwordsDoNotMatch);
      // Every invitation is to a staff role: a new account's password must not be a common one.
      const problem = passwordProblem(body.password, { privileged: true });
      if (problem === MESSAGES.passwordTooShort) throw new AppError('VALIDATION_FAILED', problem);
      const newHash = await hashPassword(body.password);
      const result = await db.transaction(async (tx) => {
        // Lock the invitation: a token works once, even when two tabs submit together.
        const locked = await tx.execute(
          sql`select id from ${staffInvitations} where invite_token_hash = ${hashToken(body.token)} for update`,
        );
        const id = locked.rows[0]?.id as string | undefined;
        const inv = id ? (await tx.select().from(staffInvitations).where(eq(staffInvitations.id, id)))[0] : undefined;
        if (!inv || inv.status !== 'pending') throw new AppError('GONE', MESSAGES.invalidOrExpiredInvitation);
        if (inv.expiresAt <= new Date()) throw new AppError('GONE', MESSAGES.invitationExpired);
        if (body.email && normaliseEmail(body.email) !== normaliseEmail(inv.email))
          throw new AppError('BAD_REQUEST', MESSAGES.invalidOrExpiredInvitation);
        // The link carries its inviter's authority: gone if they were deactivated or lost the rank.
        if (!inviterStillAllows(await inviterNow(tx, inv), inv.role as Role)) throw new AppError('GONE', MESSAGES.inviterNoLongerAllowed);
        let user = await findUserByEmail(tx, inv.email);
        if (user) {
          // An existing account joins with its own password: a link alone must not take over an account.
          if (!(await verifyPassword(user.passwordHash, body.password))) {
            throw new AppError(
              'INVALID_CREDENTIALS',
              'An account with this e-mail already exists: enter its current password to accept the invitation.',
            );
          }
          await tx
            .update(profiles)
            .set({ role: inv.role })
            .where(and(eq(profiles.userId, user.id), eq(profiles.role, 'client')));
        } else {
          if (problem) throw new AppError('VALIDATION_FAILED', problem);
          const [u] = await tx.insert(users).values({ email: inv.email, passwordHash: newHash }).returning();
          user = u!;
          await tx.insert(profiles).values({
            userId: user.id,
            email: inv.email,
            firstName: body.first_name?.trim() || null,
            lastName: body.last_name?.trim() || null,
            role: inv.role,
          });
        }
        await grantRole(tx, user.id, inv.role as Role, inv.invitedBy);
        await tx
          .update(staffInvitations)
          .set({ status: 'accepted', acceptedAt: sql`now()`, acceptedUserId: user.id })
          .where(eq(staffInvitations.id, inv.id));
        const actor = { kind: 'user' as const, id: user.id };
        await enqueueEvent(
          tx,
          SCHEMA,
          'identity.staff_joined',
          { userId: user.id, email: inv.email, role: inv.role, invitationId: inv.id },
          { actor, key: user.id },
        );
        const name = [body.first_name, body.last_name].filter(Boolean).join(' ').trim() || inv.email;
        await enqueueEvent(
          tx,
          SCHEMA,
          'identity.role_changed',
          { userId: user.id, role: inv.role, isActive: true, email: inv.email, name },
          { actor, key: user.id },
        );
        return { existing: Boolean(user && user.createdAt < inv.createdAt) };
      });
      return { success: true, message: result.existing ? 'Role added to your account. Please sign in.' : MESSAGES.accountCreated };
    },
  );
}
