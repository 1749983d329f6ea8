import { AppError, enqueueEvent, type Principal } from '@countinghouse/kit';
import { createHash, randomBytes } from 'node:crypto';
import { calendarTokenOf, feedDeadlines, principalOfToken, setCalendarToken } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import { buildCalendar } from '../domain/ical.js';
import type { DeadlinesDeps } from './deps.js';

/** 32 random bytes (256 bits), base64url: the feed address is the only key, so it must not be guessable. */
export function newFeedToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashFeedToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

const feedUrl = (deps: DeadlinesDeps, token: string) => `${deps.publicUrl.replace(/\/+$/, '')}/api/deadlines/feed/${token}.ics`;

/** Only the hash is stored, so the address is shown once: when it is made. */
export async function getCalendarFeed(deps: DeadlinesDeps, principal: Principal) {
  const row = await calendarTokenOf(deps.db, principal.id);
  return { url: null, has_feed: !!row, created_at: row?.createdAt.toISOString() ?? null };
}

/** Make a new secret address; the old one stops working at once. */
export async function resetCalendarFeed(deps: DeadlinesDeps, principal: Principal) {
  const token = newFeedToken();
  const row = await deps.db.transaction(async (tx) => {
    await setCalendarToken(tx, principal.id, principal.kind, hashFeedToken(token));
    const made = await calendarTokenOf(tx, principal.id);
    await enqueueEvent(
      tx,
      SCHEMA,
      'deadlines.calendar_feed_changed',
      { principalId: principal.id, active: true, since: made?.createdAt.toISOString() ?? null },
      { actor: { kind: principal.kind, id: principal.id }, key: principal.id },
    );
    return made;
  });
  return { url: feedUrl(deps, token), has_feed: true, created_at: row?.createdAt.toISOString() ?? null };
}

export async function renderFeed(deps: DeadlinesDeps, tokenWithExt: string): Promise<string> {
  const token = tokenWithExt.replace(/\.ics$/, '');
  const row = await principalOfToken(deps.db, hashFeedToken(token));
  // One answer for a wrong and an old address: nothing to learn by probing.
  if (!row) throw new AppError('NOT_FOUND', 'No calendar at this address');
  // Its owner was cut off (deactivated, a role revoked, a reset) after it was made: refused now, in
  // every process that has heard of it, before the leavers consumer deletes it.
  const cutOff = deps.revocations.subjectCutOff(row.principalId);
  if (cutOff !== undefined && row.createdAt.getTime() < cutOff * 1000) throw new AppError('NOT_FOUND', 'No calendar at this address');
  const today = deps.today();
  const deadlines = await feedDeadlines(deps.db, row.principalId, today);
  return buildCalendar({ name: 'Client deadlines', deadlines, now: new Date(), baseUrl: deps.publicUrl.replace(/\/+$/, '') });
}
