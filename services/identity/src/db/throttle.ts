import type { Db } from '@countinghouse/kit';
import { sql } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import { KNOWN_ADDRESS_DAYS, LEVEL_RESET_HOURS, RULES, startsDelay, type ThrottleRow, type ThrottleScope } from '../domain/throttle.js';

type Exec = Pick<Db, 'execute'>;

/** Addresses are kept as SHA-256 in the known-addresses table. */
export function addressHash(address: string): string {
  return createHash('sha256').update(address).digest('hex');
}

/** A counter as the queries select it (timestamps as the driver gives them: text). */
type ThrottleDbRow = { scope: ThrottleScope; key: string; failures: number; delay_level: number; delay_until: string | null };

function rowOf(r: ThrottleDbRow): ThrottleRow {
  return {
    scope: r.scope,
    key: String(r.key),
    failures: Number(r.failures),
    delayLevel: Number(r.delay_level),
    delayUntil: r.delay_until ? new Date(r.delay_until) : null,
  };
}

/** The counters of an account key and of an address, and whether the address is known to the account. */
export async function readThrottle(
  db: Exec,
  account: { scope: 'user' | 'admin'; key: string },
  address: string,
): Promise<{ account: ThrottleRow | null; address: ThrottleRow | null; knownAddress: boolean }> {
  // (the counters, and a row of scope 'known' when the address is known to the account)
  const res = await db.execute<ThrottleDbRow | { scope: 'known' }>(sql`
    select scope, key, failures, delay_level, delay_until, null::boolean as known
      from identity.sign_in_throttle
     where (scope = ${account.scope} and key = ${account.key}) or (scope = 'address' and key = ${address})
    union all
    select 'known', '', 0, 0, null, true
      from identity.sign_in_known_addresses
     where scope = ${account.scope} and account_key = ${account.key} and address_hash = ${addressHash(address)}
       and last_success_at > now() - make_interval(days => ${KNOWN_ADDRESS_DAYS})`);
  const rows = res.rows;
  const find = (scope: string) => rows.find((r) => r.scope === scope);
  const counter = (scope: ThrottleScope) => {
    const r = find(scope);
    return r && r.scope !== 'known' ? rowOf(r) : null;
  };
  return { account: counter(account.scope), address: counter('address'), knownAddress: Boolean(find('known')) };
}

export interface CountedFailure {
  row: ThrottleRow;
  /** Set when this attempt started a delay (and it was logged). */
  delayStarted: { until: Date; level: number } | null;
}

/**
 * Count one failed or refused attempt against the account key and the address: one atomic
 * INSERT ... ON CONFLICT DO UPDATE ... RETURNING for both rows, so concurrent attempts each add one.
 * The attempt whose count is a multiple of the limit starts the next, longer delay and logs it.
 */
export async function countFailure(
  db: Db,
  account: { scope: 'user' | 'admin'; key: string },
  address: string,
): Promise<{ account: CountedFailure; address: CountedFailure }> {
  const window = (scope: ThrottleScope) => sql`make_interval(mins => ${RULES[scope].windowMinutes})`;
  const res = await db.execute<ThrottleDbRow>(sql`
    insert into identity.sign_in_throttle as t (scope, key, failures, window_start, last_failure_at)
    values (${account.scope}, ${account.key}, 1, now(), now()), ('address', ${address}, 1, now(), now())
    on conflict (scope, key) do update set
      failures = case when t.window_start > now() - (case when t.scope = 'address' then ${window('address')} else ${window('user')} end)
                      then t.failures + 1 else 1 end,
      window_start = case when t.window_start > now() - (case when t.scope = 'address' then ${window('address')} else ${window('user')} end)
                      then t.window_start else now() end,
      delay_level = case when t.last_failure_at < now() - make_interval(hours => ${LEVEL_RESET_HOURS}) then 0 else t.delay_level end,
      last_failure_at = now()
    returning scope, key, failures, delay_level, delay_until`);
  const rows = res.rows.map(rowOf);
  const out: Partial<Record<'account' | 'address', CountedFailure>> = {};
  for (const row of rows) {
    const which = row.scope === 'address' ? 'address' : 'account';
    const rule = RULES[row.scope];
    let delayStarted: CountedFailure['delayStarted'] = null;
    if (startsDelay(rule, row.failures)) {
      // Exactly one attempt sees each multiple of the limit: it starts the delay (level read and raised
      // in the same statement; the length is delayMinutes() of domain/throttle.ts) and logs it, in one transaction.
      delayStarted = await db.transaction(async (tx) => {
        const started = await tx.execute<{ level: number; delay_until: string }>(sql`
          update identity.sign_in_throttle as t
             set delay_level = t.delay_level + 1,
                 delay_until = greatest(coalesce(t.delay_until, now()), now() + make_interval(mins => (
                   select least(${rule.maxDelayMinutes}, ${rule.firstDelayMinutes} * power(2, least(t.delay_level, 30)))::int)))
           where t.scope = ${row.scope} and t.key = ${row.key}
          returning t.delay_level - 1 as level, t.delay_until`);
        const s = started.rows[0]!;
        const until = new Date(s.delay_until);
        await tx.execute(sql`
          insert into identity.sign_in_lockouts (scope, key, address, failures, level, until)
          values (${row.scope}, ${row.key}, ${address}, ${row.failures}, ${Number(s.level)}, ${until.toISOString()})`);
        return { until, level: Number(s.level) };
      });
      row.delayLevel = delayStarted.level + 1;
      row.delayUntil = delayStarted.until;
    }
    out[which] = { row, delayStarted };
  }
  // (the upsert of the two rows returns both)
  if (!out.account || !out.address) throw new Error('sign-in throttle: the account and address counters were not both returned');
  return { account: out.account, address: out.address };
}

/**
 * Whoever proved control of the account (a password reset through its mailbox) is no longer held back
 * by strangers' guesses: its count, running delay and delay level start again.
 */
export async function clearAccountThrottle(db: Exec, account: { scope: 'user' | 'admin'; key: string }): Promise<void> {
  await db.execute(sql`
    update identity.sign_in_throttle set failures = 0, window_start = now(), delay_level = 0, delay_until = null
     where scope = ${account.scope} and key = ${account.key}`);
}

/**
 * A successful sign-in: the account's failure count starts again (its delay level and any running
 * delay stay: they are for strangers), and the address becomes known to the account.
 */
export async function recordSuccess(db: Exec, account: { scope: 'user' | 'admin'; key: string }, address: string): Promise<void> {
  await db.execute(sql`
    update identity.sign_in_throttle set failures = 0, window_start = now()
     where scope = ${account.scope} and key = ${account.key} and failures > 0`);
  await db.execute(sql`
    insert into identity.sign_in_known_addresses (scope, account_key, address_hash, last_success_at)
    values (${account.scope}, ${account.key}, ${addressHash(address)}, now())
    on conflict (scope, account_key, address_hash) do update set last_success_at = now()`);
}

export interface LockoutRow {
  id: string;
  scope: ThrottleScope;
  key: string;
  address: string | null;
  failures: number;
  level: number;
  startedAt: Date;
  until: Date;
}

/** The most recent delays, newest first. */
export async function listLockouts(db: Exec, limit: number): Promise<LockoutRow[]> {
  const res = await db.execute<{
    id: string;
    scope: ThrottleScope;
    key: string;
    address: string | null;
    failures: number;
    level: number;
    started_at: string;
    until: string;
  }>(sql`
    select id, scope, key, address, failures, level, started_at, until
      from identity.sign_in_lockouts order by started_at desc limit ${limit}`);
  return res.rows.map((r) => ({
    id: String(r.id),
    scope: r.scope,
    key: String(r.key),
    address: r.address ?? null,
    failures: Number(r.failures),
    level: Number(r.level),
    startedAt: new Date(r.started_at),
    until: new Date(r.until),
  }));
}

/** Forget counters quiet for a day past their delay, known addresses past 30 days, log rows past a year. */
export async function pruneThrottle(db: Exec): Promise<void> {
  await db.execute(sql`
    delete from identity.sign_in_throttle
     where last_failure_at < now() - make_interval(hours => ${LEVEL_RESET_HOURS}) and (delay_until is null or delay_until < now())`);
  await db.execute(sql`
    delete from identity.sign_in_known_addresses where last_success_at < now() - make_interval(days => ${KNOWN_ADDRESS_DAYS})`);
  await db.execute(sql`delete from identity.sign_in_lockouts where started_at < now() - interval '1 year'`);
}
