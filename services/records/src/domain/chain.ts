import { createHash } from 'node:crypto';

/** The chain an entry belongs to: its client, or the practice for entries about no client. */
export const PRACTICE_CHAIN = 'practice';
export const GENESIS_HASH = '0'.repeat(64);

export interface ChainedContent {
  chain: string;
  seq: number;
  clientId: string | null;
  eventId: string;
  /** ISO instant (milliseconds, Z). */
  occurredAt: string;
  actorKind: string;
  actorId: string | null;
  actorName: string | null;
  ip: string | null;
  action: string;
  summary: string;
}

/** The entry as one canonical string: fixed key order, so the same content always hashes the same. */
export function canonical(e: ChainedContent): string {
  return JSON.stringify([
    e.chain,
    e.seq,
    e.clientId,
    e.eventId,
    new Date(e.occurredAt).toISOString(),
    e.actorKind,
    e.actorId,
    e.actorName,
    e.ip,
    e.action,
    e.summary,
  ]);
}

/** sha256 over the previous entry's hash and this entry's canonical content. */
export function hashEntry(prevHash: string, e: ChainedContent): string {
  return createHash('sha256').update(prevHash).update('\n').update(canonical(e)).digest('hex');
}

export type ChainVerdict = { intact: true; brokenAtSeq: null } | { intact: false; brokenAtSeq: number };

/** Where a chain's removed beginning ended: its last removed entry (absent: nothing removed). */
export interface Checkpoint {
  seq: number;
  hash: string;
}

/**
 * Walk a chain in seq order: each entry's prev_hash must be the hash before it and its hash must follow
 * from its content. An edited field, a removed or reordered entry all break it. The first entry must
 * begin the chain (seq 1 after the genesis hash) or, when retention removed the chain's beginning,
 * follow its checkpoint (seq + 1 after the last removed hash): removing more than the run did is found.
 */
export function verifyChain(
  rows: ReadonlyArray<ChainedContent & { prevHash: string; hash: string }>,
  checkpoint: Checkpoint | null = null,
): ChainVerdict {
  let prev: string = checkpoint?.hash ?? GENESIS_HASH;
  let seq = checkpoint?.seq ?? 0;
  for (const r of rows) {
    if (r.seq !== seq + 1 || r.prevHash !== prev) return { intact: false, brokenAtSeq: r.seq };
    seq = r.seq;
    if (hashEntry(r.prevHash, r) !== r.hash) return { intact: false, brokenAtSeq: r.seq };
    prev = r.hash;
  }
  return { intact: true, brokenAtSeq: null };
}
