import type { DbOrTx } from '@countinghouse/kit';
import type { SecondFactorUse } from '@countinghouse/proto';
import { sql } from 'drizzle-orm';

/** Every query of two-factor sign-in (identity.totp_factors, identity.recovery_codes). */

export async function factorOf(db: DbOrTx, userId: string, o: { forUpdate?: boolean } = {}) {
  const res = await db.execute(
    o.forUpdate
      ? sql`select secret, confirmed_at, last_used_step from identity.totp_factors where user_id = ${userId} for update`
      : sql`select secret, confirmed_at, last_used_step from identity.totp_factors where user_id = ${userId}`,
  );
  const r = res.rows[0];
  return r
    ? {
        secret: String(r.secret),
        confirmed: r.confirmed_at != null,
        lastUsedStep: r.last_used_step == null ? null : Number(r.last_used_step),
      }
    : null;
}

export async function recoveryCodesLeft(db: DbOrTx, userId: string): Promise<number> {
  const res = await db.execute(sql`select count(*)::int as n from identity.recovery_codes where user_id = ${userId} and used_at is null`);
  return Number(res.rows[0]?.n ?? 0);
}

/** A new, unconfirmed secret (replacing an unconfirmed one). */
export async function putUnconfirmedFactor(db: DbOrTx, userId: string, secretBase32: string): Promise<void> {
  await db.execute(sql`
    insert into identity.totp_factors (user_id, secret) values (${userId}, ${secretBase32})
    on conflict (user_id) do update set secret = excluded.secret, confirmed_at = null, last_used_step = null, created_at = now()`);
}

export async function confirmFactor(tx: DbOrTx, userId: string, step: number): Promise<void> {
  await tx.execute(sql`update identity.totp_factors set confirmed_at = now(), last_used_step = ${step} where user_id = ${userId}`);
}

export async function replaceRecoveryCodes(tx: DbOrTx, userId: string, hashes: readonly string[]): Promise<void> {
  await tx.execute(sql`delete from identity.recovery_codes where user_id = ${userId}`);
  for (const h of hashes) await tx.execute(sql`insert into identity.recovery_codes (user_id, code_hash) values (${userId}, ${h})`);
}

/** Spend an unused recovery code; true when this call spent it. */
export async function spendRecoveryCode(db: DbOrTx, userId: string, codeHash: string): Promise<boolean> {
  const used = await db.execute(sql`
    update identity.recovery_codes set used_at = now()
     where user_id = ${userId} and code_hash = ${codeHash} and used_at is null returning id`);
  return used.rows.length === 1;
}

/** Record `step` as used, only if no later (or equal) step was used meanwhile; true when this call did. */
export async function advanceUsedStep(db: DbOrTx, userId: string, step: number): Promise<boolean> {
  const won = await db.execute(sql`
    update identity.totp_factors set last_used_step = ${step}
     where user_id = ${userId} and (last_used_step is null or last_used_step < ${step}) returning user_id`);
  return won.rows.length === 1;
}

/** Remove a person's second factor and recovery codes; true when they had one. */
export async function deleteSecondFactor(tx: DbOrTx, userId: string): Promise<boolean> {
  const gone = await tx.execute(sql`delete from identity.totp_factors where user_id = ${userId} returning user_id`);
  await tx.execute(sql`delete from identity.recovery_codes where user_id = ${userId}`);
  const keys = await tx.execute(sql`delete from identity.passkeys where user_id = ${userId} returning id`);
  return gone.rows.length > 0 || keys.rows.length > 0;
}

/** The date from which staff-side roles must have a second factor (YYYY-MM-DD), or null. */
export async function readTwoFactorPolicy(db: DbOrTx): Promise<{ requiredFrom: string | null; updatedAt: Date | null }> {
  const res = await db.execute(sql`select required_from::text as required_from, updated_at from identity.two_factor_policy where id = 1`);
  const r = res.rows[0];
  return { requiredFrom: r?.required_from == null ? null : String(r.required_from), updatedAt: r ? new Date(String(r.updated_at)) : null };
}

export async function writeTwoFactorPolicy(db: DbOrTx, requiredFrom: string | null, by: string): Promise<void> {
  await db.execute(sql`
    insert into identity.two_factor_policy (id, required_from, updated_at, updated_by) values (1, ${requiredFrom}, now(), ${by})
    on conflict (id) do update set required_from = excluded.required_from, updated_at = now(), updated_by = excluded.updated_by`);
}

/** TOTP secrets still in the clear (not `v1.`-sealed). */
export async function listPlainTotpSecrets(db: DbOrTx): Promise<{ userId: string; secret: string }[]> {
  const res = await db.execute(sql`select user_id, secret from identity.totp_factors where secret not like 'v1.%'`);
  return res.rows.map((r) => ({ userId: String(r.user_id), secret: String(r.secret) }));
}

/** Replace a plain secret by its sealed form, only if it is still the plain one. */
export async function resealTotpSecret(db: DbOrTx, userId: string, plain: string, sealed: string): Promise<void> {
  await db.execute(sql`update identity.totp_factors set secret = ${sealed} where user_id = ${userId} and secret = ${plain}`);
}

// ── passkeys (WebAuthn) ─────────────────────────────────────────────────────────────────────────

export interface PasskeyRow {
  id: string;
  userId: string;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

function passkeyOf(r: Record<string, unknown>): PasskeyRow {
  return {
    id: String(r.id),
    userId: String(r.user_id),
    credentialId: String(r.credential_id),
    publicKey: String(r.public_key),
    counter: Number(r.counter),
    transports: (r.transports as string[] | null) ?? [],
    name: String(r.name),
    createdAt: new Date(String(r.created_at)),
    lastUsedAt: r.last_used_at == null ? null : new Date(String(r.last_used_at)),
  };
}

export async function passkeysOf(db: DbOrTx, userId: string): Promise<PasskeyRow[]> {
  const res = await db.execute(sql`select * from identity.passkeys where user_id = ${userId} order by created_at`);
  return res.rows.map(passkeyOf);
}

export async function passkeyByCredential(db: DbOrTx, credentialId: string): Promise<PasskeyRow | null> {
  const res = await db.execute(sql`select * from identity.passkeys where credential_id = ${credentialId}`);
  return res.rows[0] ? passkeyOf(res.rows[0]) : null;
}

export async function insertPasskey(
  db: DbOrTx,
  p: { userId: string; credentialId: string; publicKey: string; counter: number; transports: string[]; name: string },
): Promise<void> {
  await db.execute(sql`
    insert into identity.passkeys (user_id, credential_id, public_key, counter, transports, name)
    values (${p.userId}, ${p.credentialId}, ${p.publicKey}, ${p.counter}, ${`{${p.transports.map((t) => `"${t.replace(/["\\]/g, '')}"`).join(',')}}`}::text[], ${p.name})`);
}

/** Record a use; the counter only moves forward (a cloned authenticator shows an older one). */
export async function markPasskeyUsed(db: DbOrTx, id: string, counter: number): Promise<void> {
  await db.execute(sql`update identity.passkeys set counter = greatest(counter, ${counter}), last_used_at = now() where id = ${id}`);
}

export async function deletePasskey(db: DbOrTx, userId: string, id: string): Promise<boolean> {
  const gone = await db.execute(sql`delete from identity.passkeys where user_id = ${userId} and id = ${id} returning id`);
  return gone.rows.length > 0;
}

export async function hasPasskey(db: DbOrTx, userId: string): Promise<boolean> {
  const res = await db.execute(sql`select 1 from identity.passkeys where user_id = ${userId} limit 1`);
  return res.rows.length > 0;
}

/** A challenge handed out for five minutes; its id goes back to the browser. */
export async function putChallenge(
  db: DbOrTx,
  o: { userId: string | null; purpose: 'register' | 'sign-in'; challenge: string },
): Promise<string> {
  const res = await db.execute(sql`
    insert into identity.webauthn_challenges (user_id, purpose, challenge, expires_at)
    values (${o.userId}, ${o.purpose}, ${o.challenge}, now() + interval '5 minutes') returning id`);
  // expired ones of anybody go at the same time
  await db.execute(sql`delete from identity.webauthn_challenges where expires_at < now() - interval '1 hour'`);
  return String(res.rows[0]!.id);
}

/** Take (and so spend) a live challenge: single use. */
export async function takeChallenge(
  db: DbOrTx,
  o: { id: string; purpose: 'register' | 'sign-in'; userId: string | null },
): Promise<string | null> {
  const res = await db.execute(sql`
    delete from identity.webauthn_challenges
     where id = ${o.id} and purpose = ${o.purpose} and expires_at > now()
       and user_id is not distinct from ${o.userId}
    returning challenge`);
  return res.rows[0] ? String(res.rows[0].challenge) : null;
}

/** Keep the second factor a session signed in with (HMRC's Gov-Client-Multi-Factor). */
export async function recordSessionSecondFactor(db: DbOrTx, sessionId: string, use: SecondFactorUse): Promise<void> {
  await db.execute(sql`
    insert into identity.session_second_factors (session_id, type, used_at, reference)
    values (${sessionId}, ${use.type}, ${new Date(use.at * 1000).toISOString()}, ${use.reference})
    on conflict (session_id) do nothing`);
}

export async function sessionSecondFactor(db: DbOrTx, sessionId: string): Promise<SecondFactorUse | null> {
  const res = await db.execute(sql`select type, used_at, reference from identity.session_second_factors where session_id = ${sessionId}`);
  const r = res.rows[0];
  return r
    ? {
        type: String(r.type) as SecondFactorUse['type'],
        at: Math.floor(new Date(String(r.used_at)).getTime() / 1000),
        reference: String(r.reference),
      }
    : null;
}
