import type { DbOrTx } from '@countinghouse/kit';
import type { SecondFactorUse } from '@countinghouse/proto';
import { sql, type SQL } from 'drizzle-orm';

/**
 * Every query of two-factor sign-in. The authenticator app, its recovery codes and the second factor a
 * session signed in with are kept per owner: people (identity.totp_factors, recovery_codes,
 * session_second_factors, keyed by user_id) and admin panel accounts (the admin_ tables, keyed by
 * admin_id). The same queries serve both; `t` names the table set.
 */
export interface FactorTables {
  owner: 'user' | 'admin';
  factors: SQL;
  codes: SQL;
  sessions: SQL;
  id: SQL;
}

export const PERSON_FACTORS: FactorTables = {
  owner: 'user',
  factors: sql.raw('identity.totp_factors'),
  codes: sql.raw('identity.recovery_codes'),
  sessions: sql.raw('identity.session_second_factors'),
  id: sql.raw('user_id'),
};

export const ADMIN_FACTORS: FactorTables = {
  owner: 'admin',
  factors: sql.raw('identity.admin_totp_factors'),
  codes: sql.raw('identity.admin_recovery_codes'),
  sessions: sql.raw('identity.admin_session_second_factors'),
  id: sql.raw('admin_id'),
};

export async function factorOf(db: DbOrTx, t: FactorTables, ownerId: string, o: { forUpdate?: boolean } = {}) {
  const res = await db.execute(
    o.forUpdate
      ? sql`select secret, confirmed_at, last_used_step from ${t.factors} where ${t.id} = ${ownerId} for update`
      : sql`select secret, confirmed_at, last_used_step from ${t.factors} where ${t.id} = ${ownerId}`,
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

export async function recoveryCodesLeft(db: DbOrTx, t: FactorTables, ownerId: string): Promise<number> {
  const res = await db.execute(sql`select count(*)::int as n from ${t.codes} where ${t.id} = ${ownerId} and used_at is null`);
  return Number(res.rows[0]?.n ?? 0);
}

/** A new, unconfirmed secret (replacing an unconfirmed one). */
export async function putUnconfirmedFactor(db: DbOrTx, t: FactorTables, ownerId: string, sealedSecret: string): Promise<void> {
  await db.execute(sql`
    insert into ${t.factors} (${t.id}, secret) values (${ownerId}, ${sealedSecret})
    on conflict (${t.id}) do update set secret = excluded.secret, confirmed_at = null, last_used_step = null, created_at = now()`);
}

export async function confirmFactor(tx: DbOrTx, t: FactorTables, ownerId: string, step: number): Promise<void> {
  await tx.execute(sql`update ${t.factors} set confirmed_at = now(), last_used_step = ${step} where ${t.id} = ${ownerId}`);
}

export async function replaceRecoveryCodes(tx: DbOrTx, t: FactorTables, ownerId: string, hashes: readonly string[]): Promise<void> {
  await tx.execute(sql`delete from ${t.codes} where ${t.id} = ${ownerId}`);
  for (const h of hashes) await tx.execute(sql`insert into ${t.codes} (${t.id}, code_hash) values (${ownerId}, ${h})`);
}

/** Spend an unused recovery code; true when this call spent it. */
export async function spendRecoveryCode(db: DbOrTx, t: FactorTables, ownerId: string, codeHash: string): Promise<boolean> {
  const used = await db.execute(sql`
    update ${t.codes} set used_at = now()
     where ${t.id} = ${ownerId} and code_hash = ${codeHash} and used_at is null returning id`);
  return used.rows.length === 1;
}

/** Record `step` as used, only if no later (or equal) step was used meanwhile; true when this call did. */
export async function advanceUsedStep(db: DbOrTx, t: FactorTables, ownerId: string, step: number): Promise<boolean> {
  const won = await db.execute(sql`
    update ${t.factors} set last_used_step = ${step}
     where ${t.id} = ${ownerId} and (last_used_step is null or last_used_step < ${step}) returning ${t.id}`);
  return won.rows.length === 1;
}

/** Remove the owner's second factor and recovery codes (and a person's passkeys); true when they had one. */
export async function deleteSecondFactor(tx: DbOrTx, t: FactorTables, ownerId: string): Promise<boolean> {
  const gone = await tx.execute(sql`delete from ${t.factors} where ${t.id} = ${ownerId} returning ${t.id}`);
  await tx.execute(sql`delete from ${t.codes} where ${t.id} = ${ownerId}`);
  if (t.owner === 'admin') return gone.rows.length > 0;
  const keys = await tx.execute(sql`delete from identity.passkeys where user_id = ${ownerId} returning id`);
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
export async function listPlainTotpSecrets(db: DbOrTx, t: FactorTables): Promise<{ ownerId: string; secret: string }[]> {
  const res = await db.execute(sql`select ${t.id} as owner_id, secret from ${t.factors} where secret not like 'v1.%'`);
  return res.rows.map((r) => ({ ownerId: String(r.owner_id), secret: String(r.secret) }));
}

/** Replace a plain secret by its sealed form, only if it is still the plain one. */
export async function resealTotpSecret(db: DbOrTx, t: FactorTables, ownerId: string, plain: string, sealed: string): Promise<void> {
  await db.execute(sql`update ${t.factors} set secret = ${sealed} where ${t.id} = ${ownerId} and secret = ${plain}`);
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

/** identity.passkeys as `select *` gives it (bigint and timestamps as text, transports a text[]). */
type PasskeyDbRow = {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: string;
  counter: string;
  transports: string[] | null;
  name: string;
  created_at: string;
  last_used_at: string | null;
};

function passkeyOf(r: PasskeyDbRow): PasskeyRow {
  return {
    id: String(r.id),
    userId: String(r.user_id),
    credentialId: String(r.credential_id),
    publicKey: String(r.public_key),
    counter: Number(r.counter),
    transports: r.transports ?? [],
    name: String(r.name),
    createdAt: new Date(String(r.created_at)),
    lastUsedAt: r.last_used_at == null ? null : new Date(String(r.last_used_at)),
  };
}

export async function passkeysOf(db: DbOrTx, userId: string): Promise<PasskeyRow[]> {
  const res = await db.execute<PasskeyDbRow>(sql`select * from identity.passkeys where user_id = ${userId} order by created_at`);
  return res.rows.map(passkeyOf);
}

export async function passkeyByCredential(db: DbOrTx, credentialId: string): Promise<PasskeyRow | null> {
  const res = await db.execute<PasskeyDbRow>(sql`select * from identity.passkeys where credential_id = ${credentialId}`);
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
export async function recordSessionSecondFactor(db: DbOrTx, t: FactorTables, sessionId: string, use: SecondFactorUse): Promise<void> {
  await db.execute(sql`
    insert into ${t.sessions} (session_id, type, used_at, reference)
    values (${sessionId}, ${use.type}, ${new Date(use.at * 1000).toISOString()}, ${use.reference})
    on conflict (session_id) do nothing`);
}

export async function sessionSecondFactor(db: DbOrTx, t: FactorTables, sessionId: string): Promise<SecondFactorUse | null> {
  const res = await db.execute<{ type: SecondFactorUse['type']; used_at: string; reference: string }>(
    sql`select type, used_at, reference from ${t.sessions} where session_id = ${sessionId}`,
  );
  const r = res.rows[0];
  return r
    ? {
        type: r.type,
        at: Math.floor(new Date(String(r.used_at)).getTime() / 1000),
        reference: String(r.reference),
      }
    : null;
}
