import type { Invitation, InvitationStatus, OutgoingMail, Role, SecondFactorUse } from '@countinghouse/proto';
import { outboxTables } from '@countinghouse/kit';
import type { ThrottleScope } from '../domain/throttle.js';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  date,
  index,
  integer,
  pgSchema,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';

export const SCHEMA = 'identity';
export const identity = pgSchema(SCHEMA);

export const adminUsers = identity.table(
  'admin_users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role').$type<Role>().notNull().default('admin'),
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
      createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
      expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
      lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
      revokedAt: timestamp('revoked_at', { withTimezone: true }),
      ip: text('ip'),
      userAgent: text('user_agent'),
    },
    (t) => [
      uniqueIndex(`${name}_refresh_hash_idx`).on(t.refreshHash),
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
    role: text('role').$type<Role>().notNull().default('client'),
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
    role: text('role').$type<Role>().notNull(),
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

/**
 * Every refresh token a session has rotated out (its family's history), so a copy coming back from any
 * earlier rotation, not just the previous one, is recognised and ends the session. Pruned once older
 * than the longest session.
 */
export const retiredRefreshTokens = identity.table(
  'retired_refresh_tokens',
  {
    refreshHash: text('refresh_hash').primaryKey(),
    /** 'admin' (admin_sessions) or 'user' (user_sessions). */
    sessionKind: text('session_kind').notNull(),
    sessionId: uuid('session_id').notNull(),
    retiredAt: timestamp('retired_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('retired_refresh_tokens_retired_idx').on(t.retiredAt)],
);

/**
 * Withdrawn access that verifiers must keep refusing until the last token it covers has expired:
 * a session (every token of it) or a subject (every token issued before `issued_before`). Loaded at
 * start, so a restart forgets nothing; pruned after `expires_at`.
 */
export const revocations = identity.table(
  'revocations',
  {
    kind: text('kind').notNull(),
    targetId: text('target_id').notNull(),
    subjectId: text('subject_id').notNull(),
    /** Seconds since the epoch; subjects only. */
    issuedBefore: bigint('issued_before', { mode: 'number' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.targetId] }), index('revocations_expires_idx').on(t.expiresAt)],
);

/**
 * Sign-in attempt counters, one row per account key (people: the normalised e-mail, known or not;
 * admin panel accounts: the lower-cased username) and per client address. Updated only by one atomic
 * upsert per attempt, so concurrent guesses all count.
 */
export const signInThrottle = identity.table(
  'sign_in_throttle',
  {
    /** 'user' | 'admin' | 'address' */
    scope: text('scope').$type<ThrottleScope>().notNull(),
    key: text('key').notNull(),
    failures: integer('failures').notNull().default(0),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull().defaultNow(),
    lastFailureAt: timestamp('last_failure_at', { withTimezone: true }).notNull().defaultNow(),
    /** How many delays have started (the next one is twice as long), back to 0 after a quiet day. */
    delayLevel: integer('delay_level').notNull().default(0),
    delayUntil: timestamp('delay_until', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.scope, t.key] }), index('sign_in_throttle_last_failure_idx').on(t.lastFailureAt)],
);

/** Addresses an account recently signed in from (SHA-256 of the address): they pass its delays. */
export const signInKnownAddresses = identity.table(
  'sign_in_known_addresses',
  {
    scope: text('scope').$type<ThrottleScope>().notNull(),
    accountKey: text('account_key').notNull(),
    addressHash: text('address_hash').notNull(),
    lastSuccessAt: timestamp('last_success_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.accountKey, t.addressHash] }), index('sign_in_known_addresses_last_idx').on(t.lastSuccessAt)],
);

/** Every sign-in delay that started: what administrators see under Security. */
export const signInLockouts = identity.table(
  'sign_in_lockouts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    scope: text('scope').$type<ThrottleScope>().notNull(),
    /** The e-mail or username (account scopes) or the address (address scope). */
    key: text('key').notNull(),
    /** The address of the attempt that started it. */
    address: text('address'),
    failures: integer('failures').notNull(),
    level: integer('level').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    until: timestamp('until', { withTimezone: true }).notNull(),
  },
  (t) => [index('sign_in_lockouts_started_idx').on(t.startedAt)],
);

export const staffInvitations = identity.table(
  'staff_invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    role: text('role').$type<Invitation['role']>().notNull(),
    invitedBy: uuid('invited_by'),
    invitedByKind: text('invited_by_kind').notNull().default('admin'),
    invitedByName: text('invited_by_name'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** pending, accepted or cancelled ('expired' is worked out from expires_at: domain/invitations.ts) */
    status: text('status').$type<InvitationStatus>().notNull().default('pending'),
    /** SHA-256 of the sign-up link's token: the link itself is shown once, to its creator, and never stored. */
    inviteTokenHash: text('invite_token_hash').notNull(),
    delivery: text('delivery').$type<NonNullable<Invitation['delivery']>>(),
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
    transport: text('transport').$type<OutgoingMail['transport']>().notNull(),
    status: text('status').$type<OutgoingMail['status']>().notNull(),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('outgoing_mail_created_idx').on(t.createdAt)],
);

export const { outbox, processedEvents } = outboxTables(identity);

/**
 * Bearer secrets other services hold for a person (today: deadlines' calendar feed), kept from their
 * events for the "what can this person still reach" view. Only that one exists and since when: never
 * the secret itself.
 */
export const outsideSecrets = identity.table(
  'outside_secrets',
  {
    service: text('service').notNull(),
    kind: text('kind').notNull(),
    principalId: text('principal_id').notNull(),
    since: timestamp('since', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.service, t.kind, t.principalId] })],
);

/**
 * A person's authenticator-app second factor (RFC 6238). `confirmedAt` null while being enrolled;
 * `lastUsedStep` is the time step of the last code accepted, so a code cannot be used twice.
 */
export const totpFactors = identity.table('totp_factors', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The base32 secret sealed with AES-256-GCM (domain/secret-cipher.ts, `v1.` prefix), bound to the user id. */
  secret: text('secret').notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Ten single-use recovery codes per person, stored only as SHA-256 hashes. */
export const recoveryCodes = identity.table(
  'recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('recovery_codes_user_hash_idx').on(t.userId, t.codeHash)],
);

/**
 * The admin panel accounts' authenticator-app second factor (issue 32): the same columns as
 * totp_factors, keyed by the admin panel account (db/two-factor.ts, ADMIN_FACTORS).
 */
export const adminTotpFactors = identity.table('admin_totp_factors', {
  adminId: uuid('admin_id')
    .primaryKey()
    .references(() => adminUsers.id, { onDelete: 'cascade' }),
  /** Sealed like a person's, with its own associated data (`admin-totp:<id>`): a person's secret does not open here. */
  secret: text('secret').notNull(),
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** An admin panel account's ten single-use recovery codes, stored only as SHA-256 hashes. */
export const adminRecoveryCodes = identity.table(
  'admin_recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    adminId: uuid('admin_id')
      .notNull()
      .references(() => adminUsers.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('admin_recovery_codes_admin_hash_idx').on(t.adminId, t.codeHash)],
);

/**
 * The practice's rule for staff-side roles (issue 32): from `requiredFrom` (a date, London time) every
 * administrator, manager, staff member, accountant and MLRO must have a second factor. One row (id 1).
 */
export const twoFactorPolicy = identity.table('two_factor_policy', {
  id: integer('id').primaryKey().default(1),
  requiredFrom: date('required_from', { mode: 'string' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: uuid('updated_by'),
});

/**
 * A person's passkeys (WebAuthn, issue 32): sign-in without a password, the device checking the person
 * (user verification) so one gesture is two factors. The public key only; the private one never leaves
 * the device. `counter` is the signature counter the authenticator last reported.
 */
export const passkeys = identity.table(
  'passkeys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** base64url credential id, as the browser reports it. */
    credentialId: text('credential_id').notNull(),
    /** base64url COSE public key. */
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('passkeys_credential_idx').on(t.credentialId), index('passkeys_user_idx').on(t.userId)],
);

/** The WebAuthn challenges handed out (register or sign in): single use, five minutes. */
export const webauthnChallenges = identity.table('webauthn_challenges', {
  id: uuid('id').primaryKey().defaultRandom(),
  /** The person registering a passkey; null for a sign-in (the passkey says who it is). */
  userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
  purpose: text('purpose').notNull(),
  challenge: text('challenge').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/**
 * The second factor a person's session signed in with (issue 32): kept for the session's life so every
 * refreshed access token carries it, for HMRC's Gov-Client-Multi-Factor header.
 */
export const sessionSecondFactors = identity.table('session_second_factors', {
  sessionId: uuid('session_id')
    .primaryKey()
    .references(() => userSessions.id, { onDelete: 'cascade' }),
  /** TOTP or OTHER (a recovery code, a passkey). */
  type: text('type').$type<SecondFactorUse['type']>().notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }).notNull(),
  /** SHA-256 hex identifying the factor (never the secret). */
  reference: text('reference').notNull(),
});

/** The second factor an admin panel session signed in with (as session_second_factors for people's). */
export const adminSessionSecondFactors = identity.table('admin_session_second_factors', {
  sessionId: uuid('session_id')
    .primaryKey()
    .references(() => adminSessions.id, { onDelete: 'cascade' }),
  type: text('type').$type<SecondFactorUse['type']>().notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }).notNull(),
  reference: text('reference').notNull(),
});
