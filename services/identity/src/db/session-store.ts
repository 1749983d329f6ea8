import { enqueueEvent, type Db, type OutboxRelay } from '@countinghouse/kit';
import { SESSION } from '@countinghouse/proto';
import { sql } from 'drizzle-orm';
import { addHours, hashToken, newOpaqueToken } from '../domain/tokens.js';
import { SCHEMA } from './schema.js';

type Exec = Pick<Db, 'execute'>;

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
    private readonly relay: OutboxRelay,
  ) {}

  private get t() {
    return sql.raw(`identity.${this.table}`);
  }
  private get owner() {
    return sql.raw(this.ownerColumn);
  }

  private row(r: Record<string, unknown>): SessionRow {
    return {
      id: String(r.id),
      ownerId: String(r.owner_id),
      expiresAt: new Date(r.expires_at as string),
      revokedAt: r.revoked_at ? new Date(r.revoked_at as string) : null,
    };
  }

  async create(
    tx: Exec,
    ownerId: string,
    meta: { ip: string | null; userAgent: string },
  ): Promise<{ session: SessionRow; refreshToken: string }> {
    const refreshToken = newOpaqueToken();
    const expiresAt = addHours(new Date(), this.ttlHours);
    const res = await tx.execute(sql`
      insert into ${this.t} (${this.owner}, refresh_hash, expires_at, ip, user_agent)
      values (${ownerId}, ${hashToken(refreshToken)}, ${expiresAt.toISOString()}, ${meta.ip}, ${meta.userAgent.slice(0, 300)})
      returning id, ${this.owner} as owner_id, expires_at, revoked_at`);
    return { session: this.row(res.rows[0]!), refreshToken };
  }

  /** A session that is neither revoked nor expired. */
  async findLive(sessionId: string): Promise<SessionRow | null> {
    const res = await this.db.execute(sql`
      select id, ${this.owner} as owner_id, expires_at, revoked_at from ${this.t}
      where id = ${sessionId} and revoked_at is null and expires_at > now()`);
    return res.rows[0] ? this.row(res.rows[0]) : null;
  }

  async findByRefreshToken(token: string): Promise<SessionRow | null> {
    const res = await this.db.execute(sql`
      select id, ${this.owner} as owner_id, expires_at, revoked_at from ${this.t} where refresh_hash = ${hashToken(token)}`);
    return res.rows[0] ? this.row(res.rows[0]) : null;
  }

  /**
   * Swap a presented refresh token for a new one. 'reused' means a rotated-out token came back: it
   * was copied, so the session has been revoked (and announced) here.
   */
  async rotate(
    presented: string,
  ): Promise<{ kind: 'ok'; session: SessionRow; refreshToken: string } | { kind: 'reused'; session: SessionRow } | { kind: 'invalid' }> {
    const presentedHash = hashToken(presented);
    const current = await this.db.execute(sql`
      select id, ${this.owner} as owner_id, expires_at, revoked_at from ${this.t} where refresh_hash = ${presentedHash}`);
    if (!current.rows[0]) {
      const old = await this.db.execute(sql`
        select id, ${this.owner} as owner_id, expires_at, revoked_at from ${this.t} where previous_refresh_hash = ${presentedHash} limit 1`);
      if (!old.rows[0]) return { kind: 'invalid' };
      const reused = this.row(old.rows[0]);
      await this.revokeAndAnnounce(reused.id, reused.ownerId);
      return { kind: 'reused', session: reused };
    }
    const session = this.row(current.rows[0]);
    if (session.revokedAt || session.expiresAt <= new Date()) return { kind: 'invalid' };
    const next = newOpaqueToken();
    const updated = await this.db.execute(sql`
      update ${this.t} set refresh_hash = ${hashToken(next)}, previous_refresh_hash = ${presentedHash}, last_used_at = now()
      where id = ${session.id} and refresh_hash = ${presentedHash} and revoked_at is null returning id`);
    if (updated.rows.length === 0) return { kind: 'invalid' }; // lost a race with a parallel refresh
    return { kind: 'ok', session, refreshToken: next };
  }

  /** Revoke one session; true when it was live. */
  async revoke(tx: Exec, sessionId: string): Promise<boolean> {
    const res = await tx.execute(sql`update ${this.t} set revoked_at = now() where id = ${sessionId} and revoked_at is null returning id`);
    return res.rows.length > 0;
  }

  /**
   * Revoke a session and announce it (identity.session_revoked, same transaction), so every service
   * and gateway refuses its still-unexpired access token at once.
   */
  async revokeAndAnnounce(sessionId: string, ownerId: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      if (!(await this.revoke(tx, sessionId))) return;
      await enqueueEvent(
        tx,
        SCHEMA,
        'identity.session_revoked',
        { sessionId, subjectId: ownerId, until: Math.floor(Date.now() / 1000) + SESSION.accessTokenSeconds + 60 },
        { actor: { kind: this.actorKind, id: ownerId }, key: ownerId },
      );
    });
    this.relay.kick();
  }

  /** Revoke every live session of an owner; returns their ids. */
  async revokeAllOf(tx: Exec, ownerId: string): Promise<string[]> {
    const res = await tx.execute(
      sql`update ${this.t} set revoked_at = now() where ${this.owner} = ${ownerId} and revoked_at is null returning id`,
    );
    return res.rows.map((r) => String(r.id));
  }
}
