import type { Db, DbOrTx } from '@countinghouse/kit';
import {
  NOTIFICATION_KIND_VALUES,
  UNREAD_COUNT_CAP,
  type Notification,
  type NotificationKind,
  type NotificationListQuery,
  type NotificationPreferences,
  type UnreadCount,
} from '@countinghouse/proto';
import { sql } from 'drizzle-orm';
import type { NotificationText } from '../domain/compose.js';

/** Whose read state: an admin panel account or a person with an admin grant. */
export interface Recipient {
  kind: 'admin' | 'user';
  id: string;
}

export interface RecipientRow {
  read_through: number;
  muted_kinds: string[];
}

const LIST_TOTAL_CAP = 10_000;

/** A text[] parameter (one bound value, not drizzle's expansion of an array into a list). */
function textArray(values: readonly string[]) {
  return sql`${`{${values.map((v) => JSON.stringify(v)).join(',')}}`}::text[]`;
}

/** Store a notification; a second one for the same event is ignored. Returns whether it was new. */
export async function raise(tx: DbOrTx, sourceEventId: string, n: NotificationText): Promise<boolean> {
  const res = await tx.execute(sql`
    insert into notifications.notifications (kind, title, body, link, source_event_id)
    values (${n.kind}, ${n.title}, ${n.body}, ${n.link}, ${sourceEventId})
    on conflict (source_event_id) do nothing
    returning seq`);
  return res.rows.length > 0;
}

/** Record a client sighting; true when this is the first time the client id is seen (its creation). */
export async function seeClient(tx: DbOrTx, clientId: string, companyName: string): Promise<boolean> {
  const res = await tx.execute<{ inserted: boolean }>(sql`
    insert into notifications.client_directory (client_id, company_name) values (${clientId}, ${companyName})
    on conflict (client_id) do update set company_name = excluded.company_name
    returning (xmax = 0) as inserted`);
  return res.rows[0]?.inserted === true;
}

export async function companyNameOf(tx: DbOrTx, clientId: string): Promise<string | null> {
  const res = await tx.execute<{ company_name: string }>(
    sql`select company_name from notifications.client_directory where client_id = ${clientId}`,
  );
  return res.rows[0]?.company_name ?? null;
}

export async function stateOf(db: DbOrTx, r: Recipient): Promise<RecipientRow> {
  const res = await db.execute<RecipientRow & Record<string, unknown>>(sql`
    select read_through::bigint::float8 as read_through, muted_kinds from notifications.recipient_state
    where principal_kind = ${r.kind} and principal_id = ${r.id}`);
  return res.rows[0] ?? { read_through: 0, muted_kinds: [] };
}

/** The kinds this recipient receives, filtered further to one kind when asked. */
function receivedKinds(state: RecipientRow, only?: NotificationKind): string[] {
  return NOTIFICATION_KIND_VALUES.filter((k) => !state.muted_kinds.includes(k) && (!only || k === only));
}

/**
 * Unread = of a kind the recipient receives, above their watermark, without a receipt. Counted up to
 * the cap only: the walk down the primary key (newest first) stops there, whatever the table's size.
 */
export async function unreadCount(db: DbOrTx, r: Recipient): Promise<UnreadCount> {
  const query = unreadCountQuery(r, await stateOf(db, r));
  if (!query) return { count: 0, capped: false };
  const res = await db.execute<{ n: number }>(query);
  const n = res.rows[0]?.n ?? 0;
  return { count: n, capped: n >= UNREAD_COUNT_CAP };
}

/** The count's SQL (exported so a test can EXPLAIN the very query the bell runs). Null when every kind is muted. */
export function unreadCountQuery(r: Recipient, state: RecipientRow) {
  const kinds = receivedKinds(state);
  if (kinds.length === 0) return null;
  return sql`
    select count(*)::int as n from (
      select 1 from notifications.notifications n
      where n.seq > ${state.read_through} and n.kind = any(${textArray(kinds)})
        and not exists (
          select 1 from notifications.read_receipts rr
          where rr.principal_kind = ${r.kind} and rr.principal_id = ${r.id} and rr.seq = n.seq)
      order by n.seq desc
      limit ${UNREAD_COUNT_CAP}
    ) t`;
}

export async function listNotifications(
  db: DbOrTx,
  r: Recipient,
  q: NotificationListQuery,
): Promise<{ notifications: Notification[]; total: number; totalExact: boolean }> {
  const state = await stateOf(db, r);
  const kinds = receivedKinds(state, q.kind && q.kind !== 'all' ? q.kind : undefined);
  if (kinds.length === 0) return { notifications: [], total: 0, totalExact: true };
  const readReceipt = sql`exists (
    select 1 from notifications.read_receipts rr
    where rr.principal_kind = ${r.kind} and rr.principal_id = ${r.id} and rr.seq = n.seq)`;
  const where =
    q.status === 'unread'
      ? sql`n.kind = any(${textArray(kinds)}) and n.seq > ${state.read_through} and not ${readReceipt}`
      : sql`n.kind = any(${textArray(kinds)})`;
  const offset = (q.page - 1) * q.page_size;
  const rows = await db.execute<NotificationDbRow>(sql`
    select n.id, n.kind, n.title, n.body, n.link, n.created_at, n.source_event_id,
           (n.seq <= ${state.read_through} or ${readReceipt}) as is_read
    from notifications.notifications n
    where ${where}
    order by n.seq desc
    limit ${q.page_size} offset ${offset}`);
  const counted = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from (select 1 from notifications.notifications n where ${where} limit ${LIST_TOTAL_CAP + 1}) t`);
  const total = counted.rows[0]?.n ?? 0;
  return {
    notifications: rows.rows.map(toNotification),
    total: Math.min(total, LIST_TOTAL_CAP),
    totalExact: total <= LIST_TOTAL_CAP,
  };
}

/** A notification as the list selects it (created_at as the driver gives it: text). */
type NotificationDbRow = {
  id: string;
  kind: NotificationKind;
  title: string;
  body: string;
  link: string;
  created_at: string;
  source_event_id: string;
  is_read: boolean | null;
};

function toNotification(row: NotificationDbRow): Notification {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    link: row.link,
    created_at: new Date(row.created_at).toISOString(),
    source_event_id: row.source_event_id,
    is_read: row.is_read === true,
  };
}

/** A read receipt for one notification (none needed at or below the watermark). False when it does not exist. */
export async function markRead(db: Db, r: Recipient, id: string): Promise<boolean> {
  const found = await db.execute<{ seq: string }>(sql`select seq from notifications.notifications where id = ${id}`);
  const seq = found.rows[0]?.seq;
  if (seq === undefined) return false;
  await db.execute(sql`
    insert into notifications.read_receipts (principal_kind, principal_id, seq)
    select ${r.kind}, ${r.id}, ${seq}::bigint
    where ${seq}::bigint > coalesce(
      (select read_through from notifications.recipient_state where principal_kind = ${r.kind} and principal_id = ${r.id}), 0)
    on conflict do nothing`);
  return true;
}

/** Move the watermark to the newest notification and drop the receipts it covers. */
export async function markAllRead(db: Db, r: Recipient): Promise<void> {
  await db.transaction(async (tx) => {
    const res = await tx.execute<{ read_through: string }>(sql`
      insert into notifications.recipient_state (principal_kind, principal_id, read_through)
      values (${r.kind}, ${r.id}, (select coalesce(max(seq), 0) from notifications.notifications))
      on conflict (principal_kind, principal_id) do update
        set read_through = greatest(notifications.recipient_state.read_through, excluded.read_through), updated_at = now()
      returning read_through`);
    const through = res.rows[0]!.read_through;
    await tx.execute(sql`
      delete from notifications.read_receipts
      where principal_kind = ${r.kind} and principal_id = ${r.id} and seq <= ${through}::bigint`);
  });
}

export async function preferencesOf(db: DbOrTx, r: Recipient): Promise<NotificationPreferences> {
  const state = await stateOf(db, r);
  return toPreferences(state.muted_kinds);
}

export async function savePreferences(db: DbOrTx, r: Recipient, p: NotificationPreferences): Promise<NotificationPreferences> {
  const muted = NOTIFICATION_KIND_VALUES.filter((k) => p.kinds[k] === false);
  const res = await db.execute<{ muted_kinds: string[] }>(sql`
    insert into notifications.recipient_state (principal_kind, principal_id, muted_kinds)
    values (${r.kind}, ${r.id}, ${textArray(muted)})
    on conflict (principal_kind, principal_id) do update set muted_kinds = excluded.muted_kinds, updated_at = now()
    returning muted_kinds`);
  return toPreferences(res.rows[0]!.muted_kinds);
}

function toPreferences(muted: string[]): NotificationPreferences {
  const on = (k: NotificationKind) => !muted.includes(k);
  return {
    kinds: {
      new_client: on('new_client'),
      payment_failed: on('payment_failed'),
      document_uploaded: on('document_uploaded'),
      invitation_accepted: on('invitation_accepted'),
      integration_sync_failed: on('integration_sync_failed'),
      job_failed: on('job_failed'),
      deadline_overdue: on('deadline_overdue'),
      aml_review_due: on('aml_review_due'),
      engagement_signed: on('engagement_signed'),
    },
  };
}
