import { enqueueEvent, type Db, type RevocationList } from '@countinghouse/kit';
import { SESSION } from '@countinghouse/proto';
import { sql } from 'drizzle-orm';
import { SCHEMA } from './schema.js';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Who revokes: a person or an admin panel account (never the system). */
export type RevocationActor = { kind: 'admin' | 'user'; id: string };
type Actor = RevocationActor;

/** A token may be checked a little after its expiry by a clock running behind: keep entries this much longer. */
const SKEW_SECONDS = 60;

type Entry =
  { kind: 'session'; sessionId: string; subjectId: string; until: number } | { kind: 'subject'; subjectId: string; issuedBefore: number };

/** What a transaction revokes, through {@link RevocationBook.transaction}. */
export interface Revoker {
  /** Every token of this session is refused from now until the last of them has expired. */
  session(sessionId: string, subjectId: string, actor: Actor): Promise<void>;
  /** Every token issued to this subject up to now is refused (a new sign-in gets a fresh one). */
  subject(subjectId: string, actor: Actor): Promise<void>;
}

/**
 * Identity's side of revocations: recorded in identity.revocations (so a restarted verifier still knows
 * them), announced by event through the outbox (for other processes), and applied to this process's
 * own RevocationList as soon as the transaction commits, before the answer that announces them (in
 * all-in-one that list is the gateway's and every service's).
 */
export class RevocationBook {
  constructor(
    private readonly db: Db,
    readonly list: RevocationList,
  ) {}

  /** Run `work` in one transaction; what it revokes through `r` takes effect here once it commits. */
  async transaction<T>(work: (tx: Tx, r: Revoker) => Promise<T>): Promise<T> {
    const entries: Entry[] = [];
    const result = await this.db.transaction(async (tx) => {
      const r: Revoker = {
        session: async (sessionId, subjectId, actor) => {
          const until = Math.floor(Date.now() / 1000) + SESSION.accessTokenSeconds + SKEW_SECONDS;
          await tx.execute(sql`
            insert into identity.revocations (kind, target_id, subject_id, expires_at)
            values ('session', ${sessionId}, ${subjectId}, to_timestamp(${until}))
            on conflict (kind, target_id) do update set expires_at = greatest(identity.revocations.expires_at, excluded.expires_at)`);
          await enqueueEvent(tx, SCHEMA, 'identity.session_revoked', { sessionId, subjectId, until }, { actor, key: subjectId });
          entries.push({ kind: 'session', sessionId, subjectId, until });
        },
        subject: async (subjectId, actor) => {
          // +1: a token issued in this very second is refused too (iat has whole seconds).
          const issuedBefore = Math.floor(Date.now() / 1000) + 1;
          const until = issuedBefore + SESSION.accessTokenSeconds + SKEW_SECONDS;
          await tx.execute(sql`
            insert into identity.revocations (kind, target_id, subject_id, issued_before, expires_at)
            values ('subject', ${subjectId}, ${subjectId}, ${issuedBefore}, to_timestamp(${until}))
            on conflict (kind, target_id) do update set
              issued_before = greatest(identity.revocations.issued_before, excluded.issued_before),
              expires_at = greatest(identity.revocations.expires_at, excluded.expires_at)`);
          await enqueueEvent(tx, SCHEMA, 'identity.subject_access_revoked', { subjectId, issuedBefore }, { actor, key: subjectId });
          entries.push({ kind: 'subject', subjectId, issuedBefore });
        },
      };
      return work(tx, r);
    });
    for (const e of entries) this.apply(e);
    return result;
  }

  private apply(e: Entry) {
    if (e.kind === 'session') this.list.revokeSession(e.sessionId, e.until);
    else this.list.revokeSubjectBefore(e.subjectId, e.issuedBefore);
  }

  /** Load every unexpired revocation into this process's list (at start, before listening). Returns how many. */
  async load(): Promise<number> {
    const entries = await liveRevocations(this.db);
    for (const e of entries) this.apply(e);
    return entries.length;
  }

  /** Forget revocations whose last token has expired. */
  async prune(): Promise<number> {
    const res = await this.db.execute(sql`delete from identity.revocations where expires_at < now() returning kind`);
    return res.rows.length;
  }
}

/** The unexpired revocations: ids and instants only, nothing secret. */
export async function liveRevocations(db: Pick<Db, 'execute'>): Promise<Entry[]> {
  const res = await db.execute(sql`
    select kind, target_id, subject_id, issued_before, extract(epoch from expires_at)::bigint as until
      from identity.revocations where expires_at > now()`);
  return res.rows.map((r) =>
    r.kind === 'session'
      ? { kind: 'session' as const, sessionId: String(r.target_id), subjectId: String(r.subject_id), until: Number(r.until) }
      : { kind: 'subject' as const, subjectId: String(r.subject_id), issuedBefore: Number(r.issued_before) },
  );
}
