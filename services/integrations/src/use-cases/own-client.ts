import { AppError, type Principal } from '@countinghouse/kit';
import { INTEGRATION_TEXTS } from '@countinghouse/proto';
import { findDirectoryEntryOfUser, type DbOrTx, type DirectoryRow } from '../db/queries.js';

/** The person's own business (the directory entry naming them), or null. */
export async function findOwnClient(db: DbOrTx, p: Principal): Promise<DirectoryRow | null> {
  if (p.kind !== 'user') return null;
  return findDirectoryEntryOfUser(db, p.id);
}

/** Connecting, syncing and disconnecting are the client's own acts: without a client record, a conflict. */
export async function requireOwnClient(db: DbOrTx, p: Principal): Promise<DirectoryRow> {
  const c = await findOwnClient(db, p);
  if (!c) throw new AppError('CONFLICT', INTEGRATION_TEXTS.noClientRecord);
  return c;
}
