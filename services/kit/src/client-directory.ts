import { eq, getTableColumns, sql, type BuildExtraConfigColumns, type SQL } from 'drizzle-orm';
import {
  index,
  text,
  timestamp,
  type PgColumnBuilderBase,
  type PgSchema,
  type PgTable,
  type PgTableExtraConfigValue,
} from 'drizzle-orm/pg-core';
import type { EventOf } from './consumers.js';
import { subscribe, type ConsumerRuntime } from './consumers.js';
import type { DbOrTx, Tx } from './db.js';

// The client directory: the read model a service keeps of crm's clients (crm.client_upserted), for
// who may see which client (client-access.ts) and the names it shows. Every service's table has these
// five columns; a service adds its own (contact, status, fee...) and says how the event fills them.

/** The columns every client directory has, in the service's own schema. */
export function clientDirectoryColumns() {
  return {
    clientId: text('client_id').primaryKey(),
    userId: text('user_id'),
    companyName: text('company_name').notNull(),
    assignedAccountantId: text('assigned_accountant_id'),
    /** occurredAt of the event that wrote this row: an older event never overwrites a newer one. */
    sourceAt: timestamp('source_at', { withTimezone: true }).notNull(),
  };
}

type CommonColumns = ReturnType<typeof clientDirectoryColumns>;
type CommonKey = keyof CommonColumns;

/** A directory of the common columns alone: the type of what every service's directory has. */
type CommonTable = ReturnType<typeof clientDirectoryTable<string, Record<never, never>>>;

/** Any service's client directory table: a table with the common columns. */
export type ClientDirectoryTable = PgTable & Pick<CommonTable, CommonKey>;

/** The common part of a directory row. */
export type ClientDirectoryRow = CommonTable['$inferInsert'];

/**
 * A service's `client_directory` table in its schema: the common columns, then `columns` (its own),
 * the index on user_id and on assigned_accountant_id (named `<indexPrefix>user_idx` and
 * `<indexPrefix>accountant_idx`), then `indexes` (its own).
 */
export function clientDirectoryTable<S extends string, X extends Record<string, PgColumnBuilderBase>>(
  schema: PgSchema<S>,
  opts: {
    indexPrefix: string;
    columns: X;
    indexes?: (t: BuildExtraConfigColumns<'client_directory', CommonColumns & X, 'pg'>) => PgTableExtraConfigValue[];
  },
) {
  return schema.table('client_directory', { ...clientDirectoryColumns(), ...opts.columns }, (t) => [
    index(`${opts.indexPrefix}user_idx`).on(t.userId),
    index(`${opts.indexPrefix}accountant_idx`).on(t.assignedAccountantId),
    ...(opts.indexes?.(t) ?? []),
  ]);
}

export type ClientUpserted = EventOf<'crm.client_upserted'>;

/** The common columns from crm's event; sourceAt is the event's occurredAt. */
export function clientDirectoryRow(event: ClientUpserted): ClientDirectoryRow {
  const d = event.data;
  return {
    clientId: d.clientId,
    userId: d.userId,
    companyName: d.companyName,
    assignedAccountantId: d.assignedAccountantId,
    sourceAt: new Date(event.occurredAt),
  };
}

/** A row of table T: the common columns and T's own. */
export type ClientDirectoryInsert<T extends ClientDirectoryTable> = ClientDirectoryRow & Omit<T['$inferInsert'], CommonKey>;

/** Columns an update sets other than to the row's value (e.g. keep a known business type), as SQL. */
export type ClientDirectoryUpdate<T extends ClientDirectoryTable> = Partial<Record<keyof T['$inferInsert'], SQL>>;

/**
 * Insert the row, or update the entry with it when this event is not older than the one that wrote it
 * (source_at); every column given is set, except those `update` sets otherwise. True when the row was
 * written (this event is the newest seen).
 */
export async function upsertClientDirectory<T extends ClientDirectoryTable>(
  db: Pick<DbOrTx, 'insert'>,
  table: T,
  row: ClientDirectoryInsert<T>,
  update: ClientDirectoryUpdate<T> = {},
): Promise<boolean> {
  const t: ClientDirectoryTable = table;
  const set = { ...Object.fromEntries(Object.entries(row).filter(([key]) => key !== 'clientId')), ...update };
  const written = await db
    .insert(t)
    .values(row)
    .onConflictDoUpdate({ target: t.clientId, set, setWhere: sql`${t.sourceAt} <= excluded.source_at` })
    .returning({ clientId: t.clientId });
  return written.length > 0;
}

/** A client's directory entry (every column of the table), locked for the transaction when asked. */
export async function clientDirectoryEntry<T extends ClientDirectoryTable>(
  db: Pick<DbOrTx, 'select'>,
  table: T,
  clientId: string,
  opts: { forUpdate?: boolean } = {},
): Promise<T['$inferSelect'] | null> {
  const t: ClientDirectoryTable = table;
  // Drizzle types a selection over a generic table loosely: these are T's own columns, so T's rows.
  const q = db.select(getTableColumns(table)).from(t).where(eq(t.clientId, clientId)).$dynamic();
  const rows: T['$inferSelect'][] = opts.forUpdate ? await q.for('update') : await q;
  return rows[0] ?? null;
}

export interface ClientDirectoryConsumer<T extends ClientDirectoryTable> {
  /** The consumer group (and processed_events name). */
  group: string;
  /** The service's schema (its processed_events). */
  schema: string;
  table: T;
  /** The service's own columns from the event (none: `() => ({})`). */
  extra: (data: ClientUpserted['data'], event: ClientUpserted) => Omit<T['$inferInsert'], CommonKey>;
  /** Columns the update sets other than to the event's value. */
  update?: ClientDirectoryUpdate<T>;
  /**
   * How the row is written when the service does more around it (a lock first, a change it follows):
   * true when written. Default: upsertClientDirectory with `update`.
   */
  write?: (tx: Tx, row: ClientDirectoryInsert<T>, event: ClientUpserted) => Promise<boolean>;
  /** What follows in the same transaction (written: this event was the newest seen). */
  then?: (tx: Tx, event: ClientUpserted, written: boolean) => Promise<void>;
}

/**
 * crm.client_upserted → the service's client directory: each event checked against proto and applied
 * once per event id by the kit's subscribe; an older event arriving late never overwrites a newer one.
 */
export async function subscribeClientDirectory<T extends ClientDirectoryTable>(
  runtime: ConsumerRuntime,
  spec: ClientDirectoryConsumer<T>,
): Promise<void> {
  await subscribe(runtime, {
    group: spec.group,
    schema: spec.schema,
    types: ['crm.client_upserted'],
    handler: async (event, tx) => {
      const row: ClientDirectoryInsert<T> = { ...spec.extra(event.data, event), ...clientDirectoryRow(event) };
      const written = spec.write ? await spec.write(tx, row, event) : await upsertClientDirectory(tx, spec.table, row, spec.update);
      await spec.then?.(tx, event, written);
    },
  });
}
