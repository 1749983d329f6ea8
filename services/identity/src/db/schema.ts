import { outboxTables } from '@countinghouse/kit';
import { sql } from 'drizzle-orm';
import { boolean, index, pgSchema, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

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

/** Admin sessions: the refresh token is stored only as a SHA-256 hash, rotated on each refresh. */
export const adminSessions = identity.table(
  'admin_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    adminId: uuid('admin_id')
      .notNull()
      .references(() => adminUsers.id, { onDelete: 'cascade' }),
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
    uniqueIndex('admin_sessions_refresh_hash_idx').on(t.refreshHash),
    index('admin_sessions_previous_hash_idx').on(t.previousRefreshHash),
    index('admin_sessions_admin_idx').on(t.adminId),
  ],
);

export const { outbox, processedEvents } = outboxTables(identity);
