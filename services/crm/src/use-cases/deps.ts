import { AppError, auditActor, pgErrorCode, type Db, type Principal } from '@countinghouse/kit';
import type { Actor } from '@countinghouse/proto';

/** What crm's use cases need: its database (events go through the outbox in the same transactions). */
export interface CrmDeps {
  db: Db;
  /** Today in London, YYYY-MM-DD (tests fix it); My work's buckets count from it. */
  today?: () => string;
}

/** Who acted, by name and from which address (the audit trail, issue 34). */
export function actorOf(p: Principal): Actor {
  return auditActor(p);
}

/** Unique and foreign-key violations that reach the database are the caller's mistake, not ours. */
export function mapDbError(err: unknown, messages: { unique?: string; foreignKey?: string }): never {
  const code = pgErrorCode(err);
  if (code === '23505' && messages.unique) throw new AppError('CONFLICT', messages.unique);
  if (code === '23503' && messages.foreignKey) throw new AppError('VALIDATION_FAILED', messages.foreignKey);
  throw err;
}

/** A list page's LIMIT and OFFSET. */
export function pageOf(q: { page: number; page_size: number }) {
  return { limit: q.page_size, offset: (q.page - 1) * q.page_size };
}
