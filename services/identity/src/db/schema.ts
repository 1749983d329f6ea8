import { outboxTables } from '@countinghouse/kit';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgSchema, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';

export const SCHEMA = 'identity';
export const identity = pgSchema(SCHEMA);

export const adminUsers = identity.table(
  'admin_users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role').notNull().default('admin'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('admin_users_username_lower_idx').on(sql`lower(${t.username})`)],
);

/**
 * A sign-in session table (administrators' or people's): the refresh token is stored only as a SHA-256
 * hash and rotated on each refresh. The two tables differ only in their owner column.
 */
function sessionsTable(name: 'admin_sessions' | 'user_sessions', owner: { column: 'admin_id' | 'user_id'; id: () => AnyPgColumn }) {
  return identity.table(
    name,
    {
      id: uuid('id').primaryKey().defaultRandom(),
      ownerId: uuid(owner.column).notNull().references(owner.id, { onDelete: 'cascade' }),
      refreshHash: text('refresh_hash').notNull(),
      previousRefreshHash: text('previous_refresh_hash'),
      createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
      expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
      lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
      revokedAt: timestamp('revoked_at', { withTimezone: true }),
      ip: text('ip'),
      userAgent: text('user_agent'),
    },
    (t) => [
      uniqueIndex(`${name}_refresh_hash_idx`).on(t.refreshHash),
      index(`${name}_previous_hash_idx`).on(t.previousRefreshHash),
      // admin_sessions_admin_idx, user_sessions_user_idx
      index(`${name}_${owner.column.replace(/_id$/, '')}_idx`).on(t.ownerId),
    ],
  );
}

/** Admin sessions (sessionsTable). */
export const adminSessions = sessionsTable('admin_sessions', { column: 'admin_id', id: () => adminUsers.id });

/** People who sign in with an e-mail: staff and clients. */
export const users = identity.table(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`)],
);

export const profiles = identity.table(
  'profiles',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    firstName: text('first_name'),
    lastName: text('last_name'),
    companyName: text('company_name'),
    role: text('role').notNull().default('client'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('profiles_created_at_idx').on(t.createdAt)],
);

export const userRoles = identity.table(
  'user_roles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    grantedAt: timestamp('granted_at', { withTimezone: true }).notNull().defaultNow(),
    grantedBy: uuid('granted_by'),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('user_roles_user_role_idx').on(t.userId, t.role),
    // counts by role, and each role's most recent holders (/admin/roles)
    index('user_roles_active_idx')
      .on(t.role, t.grantedAt)
      .where(sql`is_active`),
  ],
);

/** A person's sign-in session (sessionsTable). */
export const userSessions = sessionsTable('user_sessions', { column: 'user_id', id: () => users.id });

/** Failed sign-ins per e-mail, known or not, so a lockout reveals nothing about which e-mails exist. */
export const loginThrottle = identity.table('login_throttle', {
  emailKey: text('email_key').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull().defaultNow(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});

export const staffInvitations = identity.table(
  'staff_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    role: text('role').notNull(),
    invitedBy: uuid('invited_by'),
    invitedByKind: text('invited_by_kind').notNull().default('admin'),
    invitedByName: text('invited_by_name'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    status: text('status').notNull().default('pending'),
    /** SHA-256 of the sign-up link's token: the link itself is shown once, to its creator, and never stored. */
    inviteTokenHash: text('invite_token_hash').notNull(),
    delivery: text('delivery'),
    acceptedUserId: uuid('accepted_user_id'),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('staff_invitations_token_hash_idx').on(t.inviteTokenHash), index('staff_invitations_created_idx').on(t.createdAt)],
);

/** Password reset links: single use, LIMITS.passwordResetMinutes long, the token stored only as a SHA-256 hash. */
export const passwordResets = identity.table(
  'password_resets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    requestedIp: text('requested_ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('password_resets_token_hash_idx').on(t.tokenHash), index('password_resets_user_idx').on(t.userId, t.createdAt)],
);

/** Every e-mail the practice sends; without SMTP configured it is kept here for admins to read. */
export const outgoingMail = identity.table(
  'outgoing_mail',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    transport: text('transport').notNull(),
    status: text('status').notNull(),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('outgoing_mail_created_idx').on(t.createdAt)],
);

export const { outbox, processedEvents } = outboxTables(identity);
