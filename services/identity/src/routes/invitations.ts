import { AppError, enqueueEvent, requireRole, type App, type Db, type OutboxRelay, type Principal } from '@countinghouse/kit';
import {
  AcceptInviteBodySchema,
  InvitationListSchema,
  InvitationLookupSchema,
  InvitationSchema,
  InviteBodySchema,
  LIMITS,
  MessageReplySchema,
  MESSAGES,
  rolesFor,
  type AcceptInviteBody,
  type Invitation,
  type InviteBody,
  type Role,
} from '@countinghouse/proto';
import { Type } from '@sinclair/typebox';
import { and, desc, eq, sql } from 'drizzle-orm';
import { activeRoles, findUserByEmail, grantRole } from '../db/people-queries.js';
import { profiles, SCHEMA, staffInvitations, users } from '../db/schema.js';
import { effectiveStatus, invitationEmail, invitationExpiry, inviteUrl } from '../domain/invitations.js';
import { normaliseEmail } from '../domain/roles.js';
import { newOpaqueToken } from '../domain/tokens.js';
import type { Mailer } from '../mailer.js';
import { hashPassword, verifyPassword } from '../passwords.js';

export interface InvitationDeps {
  db: Db;
  relay: OutboxRelay;
  mailer: Mailer;
  publicUrl: string;
  practiceName: () => string;
}

const ErrorRef = Type.Ref('ErrorBody');
const manage = requireRole(rolesFor('staff.manage'));
type Row = typeof staffInvitations.$inferSelect;

export function invitationRoutes(app: App, deps: InvitationDeps) {
  const { db, relay, mailer } = deps;

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
      invite_url: status === 'pending' ? inviteUrl(deps.publicUrl, r.inviteToken) : null,
      delivery: (r.delivery as Invitation['delivery']) ?? null,
    };
  }

  const actorOf = (p: Principal) => ({ kind: p.kind, id: p.id }) as const;

  app.post(
    '/invitations',
    {
      preHandler: manage,
      schema: {
        tags: ['identity'],
        summary: 'Invite a staff member by e-mail and role',
        body: InviteBodySchema,
        response: { 201: InvitationSchema, 400: ErrorRef, 403: ErrorRef, 409: ErrorRef },
      },
    },
    async (request, reply) => {
      const p = request.principal!;
      const body = request.body as InviteBody;
      const email = normaliseEmail(body.email);
      if (body.role === 'admin' && !p.roles.includes('admin'))
        throw new AppError('FORBIDDEN', 'Only an administrator can invite another administrator.');
      const existing = await findUserByEmail(db, email);
      if (existing && (await activeRoles(db, existing.id)).includes(body.role as Role))
        throw new AppError('CONFLICT', `${email} already has the ${body.role} role.`);
      const row = await db.transaction(async (tx) => {
        // One pending invitation per e-mail: a new one replaces the old, whose link stops working.
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
            inviteToken: newOpaqueToken(),
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
      relay.kick();
      const mail = invitationEmail({
        practiceName: deps.practiceName(),
        role: body.role,
        url: inviteUrl(deps.publicUrl, row.inviteToken),
        expiresAt: row.expiresAt,
      });
      const delivery = await mailer.send({ to: email, ...mail });
      const [updated] = await db.update(staffInvitations).set({ delivery }).where(eq(staffInvitations.id, row.id)).returning();
      return reply.status(201).send(toInvitation(updated!));
    },
  );

  app.get(
    '/invitations',
    {
      preHandler: manage,
      schema: {
        tags: ['identity'],
        summary: 'All invitations, newest first',
        response: { 200: InvitationListSchema, 401: ErrorRef, 403: ErrorRef },
      },
    },
    async () => {
      const rows = await db.select().from(staffInvitations).orderBy(desc(staffInvitations.createdAt)).limit(500);
      return { invitations: rows.map(toInvitation), smtp_configured: mailer.configured };
    },
  );

  app.post(
    '/invitations/:id/cancel',
    {
      preHandler: manage,
      schema: {
        tags: ['identity'],
        summary: 'Cancel a pending invitation',
        params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
        response: { 200: InvitationSchema, 404: ErrorRef, 409: ErrorRef },
      },
    },
    async (request) => {
      const { id } = request.params as { id: string };
      const [r] = await db
        .update(staffInvitations)
        .set({ status: 'cancelled', cancelledAt: sql`now()` })
        .where(and(eq(staffInvitations.id, id), eq(staffInvitations.status, 'pending'), sql`${staffInvitations.expiresAt} > now()`))
        .returning();
      if (r) return toInvitation(r);
      const exists = await db.select({ id: staffInvitations.id }).from(staffInvitations).where(eq(staffInvitations.id, id)).limit(1);
      if (exists.length === 0) throw new AppError('NOT_FOUND', 'Invitation not found');
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
      const { token } = request.query as { token?: string };
      const none = { valid: false, email: null, role: null, expires_at: null };
      if (!token) return { ...none, message: MESSAGES.noInvitationToken };
      const rows = await db.select().from(staffInvitations).where(eq(staffInvitations.inviteToken, token)).limit(1);
      const r = rows[0];
      if (!r || r.status !== 'pending') return { ...none, message: MESSAGES.invalidOrExpiredInvitation };
      if (r.expiresAt <= new Date()) return { ...none, message: MESSAGES.invitationExpired };
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
      const body = request.body as AcceptInviteBody;
      if (!body.token) throw new AppError('BAD_REQUEST', MESSAGES.noInvitationToken);
      if (body.confirm_password !== undefined && body.confirm_password !== body.password)
        throw new AppError('VALIDATION_FAILED', MESSAGES.passwordsDoNotMatch);
      if (body.password.length < LIMITS.minPasswordLength) throw new AppError('VALIDATION_FAILED', MESSAGES.passwordTooShort);
      const newHash = await hashPassword(body.password);
      const result = await db.transaction(async (tx) => {
        // Lock the invitation: a token works once, even when two tabs submit together.
        const locked = await tx.execute(sql`select id from ${staffInvitations} where invite_token = ${body.token} for update`);
        const id = locked.rows[0]?.id as string | undefined;
        const inv = id ? (await tx.select().from(staffInvitations).where(eq(staffInvitations.id, id)))[0] : undefined;
        if (!inv || inv.status !== 'pending') throw new AppError('GONE', MESSAGES.invalidOrExpiredInvitation);
        if (inv.expiresAt <= new Date()) throw new AppError('GONE', MESSAGES.invitationExpired);
        if (body.email && normaliseEmail(body.email) !== normaliseEmail(inv.email))
          throw new AppError('BAD_REQUEST', MESSAGES.invalidOrExpiredInvitation);
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
      relay.kick();
      return { success: true, message: result.existing ? 'Role added to your account. Please sign in.' : MESSAGES.accountCreated };
    },
  );
}
