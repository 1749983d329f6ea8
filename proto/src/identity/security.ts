import { Type, type Static } from '@sinclair/typebox';

// Sign-in delays (identity's throttle), as administrators see them under Security.

export const LockoutScopeSchema = Type.Union([Type.Literal('user'), Type.Literal('admin'), Type.Literal('address')]);

export const LockoutSchema = Type.Object({
  id: Type.String({ format: 'uuid' }),
  /** 'user': a person's e-mail (registered or not); 'admin': an admin panel username; 'address': a client address. */
  scope: LockoutScopeSchema,
  /** The e-mail or username for account delays; null for an address delay. */
  account: Type.Union([Type.String(), Type.Null()]),
  /** The client address of the attempt that started the delay. */
  address: Type.Union([Type.String(), Type.Null()]),
  started_at: Type.String({ format: 'date-time' }),
  until: Type.String({ format: 'date-time' }),
  /** Failed or refused attempts counted in the window when it started. */
  failures: Type.Integer(),
  /** 0 for the first delay, then 1, 2 ... (each twice as long, capped). */
  level: Type.Integer(),
  active: Type.Boolean(),
});
export type Lockout = Static<typeof LockoutSchema>;

export const LockoutListSchema = Type.Object({
  lockouts: Type.Array(LockoutSchema),
  /** How many delays are running now. */
  active: Type.Integer(),
});
export type LockoutList = Static<typeof LockoutListSchema>;

/** How many of the most recent delays the list shows. */
export const LOCKOUTS_LIMIT = 200;
