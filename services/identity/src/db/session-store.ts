import type { Db } from '@countinghouse/kit';
import { sql } from 'drizzle-orm';
import { addHours, hashToken, newOpaqueToken } from '../domain/tokens.js';
import type { RevocationBook, Revoker } from './revocations.js';

type Exec = Pick<Db, 'execute'>;

/** A session as its queries select it (timestamps as the driver gives them: text). */
type SessionDbRow = { id: string; owner_id: string; expires_at: string; revoked_at: string | null };

export interface SessionRow {
  id: string;
  ownerId: string;
  expiresAt: Date;
  revokedAt: Date | null;
}

/**
 * Sessions with a rotating refresh token stored only as a SHA-256 hash. One implementation serves
 * administrator sessions and people's sessions (same columns, different owner).
 */
export class SessionStore {
  constructor(
    private readonly db: Db,
    private readonly table: 'admin_sessions' | 'user_sessions',
    private readonly ownerColumn: 'admin_id' | 'user_id',
    private readonly ttlHours: number,
    private readonly actorKind: 'admin' | 'user',
    private readonly revocations: RevocationBook,
  ) {}

  private get t() {
    return sql.raw(`identity.${this.table}`);
  }
  private get owner() {
    return sql.raw(this.ownerColumn);
  }

  private row(r: SessionDbRow): SessionRow {
    return {
      id: String(r.id),
      ownerId: String(r.owner_id),
      expiresAt: new Date(r.expires_at),
      revokedAt: r.revoked_at ? new Date(r.revoked_at) : null,
    };
  }

  async create(
    tx: Exec,
    ownerId: string,
    meta: { ip: string | null; userAgent: string },
  ): Promise<{ session: SessionRow; refreshToken: string }> {
    const refreshToken = newOpaqueToken();
    const expiresAt = addHours(new Date(), this.ttlHours);
    const res = await tx.execute<SessionDbRow>(sql`
      insert into ${this.t} (${this.owner}, refresh_hash, expires_at, ip, user_agent)
      values (${ownerId}, ${hashToken(refreshToken)}, ${expiresAt.toISOString()}, ${meta.ip}, ${meta.userAgent.slice(0, 300)})
      returning id, ${this.owner} as owner_id, expires_at, revoked_at`);
    return { session: this.row(res.rows[0]!), refreshToken };
  }

  /** A session that is neither revoked nor expired. */
  async findLive(sessionId: string): Promise<SessionRow | null> {
    const res = await this.db.execute<SessionDbRow>(sql`
      select id, ${this.owner} as owner_id, expires_at, revoked_at from ${this.t}
      where id = ${sessionId} and revoked_at is null and expires_at > now()`);
    return res.rows[0] ? this.row(res.rows[0]) : null;
  }

  async findByRefreshToken(token: string): Promise<SessionRow | null> {
    const res = await this.db.execute<SessionDbRow>(sql`
      select id, ${this.owner} as owner_id, expires_at, revoked_at from ${this.t} where refresh_hash = ${hashToken(token)}`);
    return res.rows[0] ? this.row(res.rows[0]) : null;
  }

  /**
   * Swap a presented refresh token for a new one. 'reused' means a token this session rotated out at
   * any earlier point came back: it was copied, so the whole session (the token family and every access
   * token of it) has been revoked here, at once.
   */
  async rotate(
    presented: string,
  ): Promise<{ kind: 'ok'; session: SessionRow; refreshToken: string } | { kind: 'reused'; session: SessionRow } | { kind: 'invalid' }> {
    const presentedHash = hashToken(presented);
    const current = await this.db.execute<SessionDbRow>(sql`
      select id, ${this.owner} as owner_id, expires_at, revoked_at from ${this.t} where refresh_hash = ${presentedHash}`);
    if (!current.rows[0]) {
      const old = await this.db.execute<SessionDbRow>(sql`
        select s.id, s.${this.owner} as owner_id, s.expires_at, s.revoked_at
          from identity.retired_refresh_tokens r join ${this.t} s on s.id = r.session_id
         where r.refresh_hash = ${presentedHash} and r.session_kind = ${this.actorKind}`);
      if (!old.rows[0]) return { kind: 'invalid' };
      const reused = this.row(old.rows[0]);
      await this.revokeAndAnnounce(reused.id, reused.ownerId);
      return { kind: 'reused', session: reused };
    }
    const session = this.row(current.rows[0]);
    if (session.revokedAt || session.expiresAt <= new Date()) return { kind: 'invalid' };
    const next = newOpaqueToken();
    const rotated = await this.db.transaction(async (tx) => {
      const updated = await tx.execute(sql`
        update ${this.t} set refresh_hash = ${hashToken(next)}, last_used_at = now()
        where id = ${session.id} and refresh_hash = ${presentedHash} and revoked_at is null returning id`);
      if (updated.rows.length === 0) return false; // lost a race with a parallel refresh
      await tx.execute(sql`
        insert into identity.retired_refresh_tokens (refresh_hash, session_kind, session_id)
        values (${presentedHash}, ${this.actorKind}, ${session.id}) on conflict do nothing`);
      return true;
    });
    if (!rotated) return { kind: 'invalid' };
    return { kind: 'ok', session, refreshToken: next };
  }

  /** Revoke one session inside `tx` (true when it was live) and, through `r`, every token of it. */
  async revoke(tx: Exec, r: Revoker, sessionId: string, ownerId: string): Promise<boolean> {
    const res = await tx.execute(sql`update ${this.t} set revoked_at = now() where id = ${sessionId} and revoked_at is null returning id`);
    if (res.rows.length === 0) return false;
    await r.session(sessionId, ownerId, { kind: this.actorKind, id: ownerId });
    return true;
  }

  /**
   * Revoke a session and announce it: recorded, refused by this process before this returns, and by
   * every other service and gateway once the identity.session_revoked event reaches it.
   */
  async revokeAndAnnounce(sessionId: string, ownerId: string): Promise<void> {
    await this.revocations.transaction(async (tx, r) => void (await this.revoke(tx, r, sessionId, ownerId)));
  }

  /**
   * End every live session of an owner except `keepSessionId` (null: all of them), each refused at
   * once like a sign-out. For "change password signs you out everywhere else". Returns the ended ids.
   */
  async endOtherSessions(ownerId: string, keepSessionId: string | null, actor?: { kind: 'admin' | 'user'; id: string }): Promise<string[]> {
    return this.revocations.transaction((tx, r) => this.revokeOthersOf(tx, r, ownerId, keepSessionId, actor));
  }

  /** {@link endOtherSessions} inside a caller's transaction. */
  async revokeOthersOf(
    tx: Exec,
    r: Revoker,
    ownerId: string,
    keepSessionId: string | null,
    actor: { kind: 'admin' | 'user'; id: string } = { kind: this.actorKind, id: ownerId },
  ): Promise<string[]> {
    const res = await tx.execute(sql`
      update ${this.t} set revoked_at = now()
       where ${this.owner} = ${ownerId} and revoked_at is null and expires_at > now()
         and (${keepSessionId}::uuid is null or id <> ${keepSessionId}::uuid)
      returning id`);
    const ids = res.rows.map((row) => String(row.id));
    for (const id of ids) await r.session(id, ownerId, actor);
    return ids;
  }

  /** Revoke every live session of an owner (no announcement per session: the caller revokes the subject). */
  async revokeAllOf(tx: Exec, ownerId: string): Promise<string[]> {
    const res = await tx.execute(
      sql`update ${this.t} set revoked_at = now() where ${this.owner} = ${ownerId} and revoked_at is null returning id`,
    );
    return res.rows.map((r) => String(r.id));
  }

  /** Forget rotated-out refresh tokens older than the longest session. */
  async pruneRetired(): Promise<void> {
    await this.db.execute(sql`
      delete from identity.retired_refresh_tokens
       where session_kind = ${this.actorKind} and retired_at < now() - make_interval(hours => ${this.ttlHours})`);
  }
}
