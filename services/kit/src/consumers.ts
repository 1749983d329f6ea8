import { EVENT_TYPES, topicOf, type EventData, type EventEnvelope, type EventType } from '@countinghouse/proto';
import { FormatRegistry, type TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { EventBus, SubscribeOptions } from './bus.js';
import type { Db, Tx } from './db.js';

/** An event of one of the types `T`, its data typed by its proto schema; a switch on `type` narrows it. */
export type EventOf<T extends EventType> = {
  [K in T]: Omit<EventEnvelope, 'type' | 'data'> & { type: K; data: EventData<K> };
}[T];

interface ConsumerCommon<T extends EventType> {
  /** The consumer group: every instance of a service shares it, so each event is handled once per service. */
  group: string;
  /** The event types handled; their topics are subscribed, other types on those topics are ignored. */
  types: readonly T[];
  /** Every instance sees every event (see SubscribeOptions.broadcast). */
  broadcast?: SubscribeOptions['broadcast'];
}

/** A consumer whose effect is in the database: handled once per event id, in one transaction with that record. */
export interface DurableConsumer<T extends EventType> extends ConsumerCommon<T> {
  /** The service's schema, whose processed_events table records each handled event id. */
  schema: string;
  /** The name in processed_events (defaults to `group`). */
  consumer?: string;
  handler: (event: EventOf<T>, tx: Tx) => Promise<void>;
}

/** A consumer with no effect in the database (an in-memory cache): no idempotency record. */
export interface MemoryConsumer<T extends EventType> extends ConsumerCommon<T> {
  schema?: undefined;
  handler: (event: EventOf<T>) => Promise<void>;
}

export type ConsumerSpec<T extends EventType> = DurableConsumer<T> | MemoryConsumer<T>;

/** What subscribe needs of the runtime. */
export interface ConsumerRuntime {
  bus: EventBus;
  db: Db;
  logger: Logger;
}

/**
 * Subscribe one consumer. Each event of a handled type is checked against its proto schema first: a
 * malformed one could never apply and would be redelivered forever, so it is logged and skipped (and
 * not recorded, so a fixed publisher's corrected event still applies). A durable consumer's handler
 * then runs in one transaction with the processed-event record: at-least-once delivery plus this is an
 * exactly-once effect. Events it writes to its own outbox in that transaction are relayed after commit.
 */
export async function subscribe<T extends EventType>(runtime: ConsumerRuntime, spec: ConsumerSpec<T>): Promise<void> {
  const handles = new Set<string>(spec.types);
  const isHandled = (type: string): type is T => handles.has(type);
  const topics = [...new Set(spec.types.map((t) => topicOf(t)))];
  const log = runtime.logger.child({ consumer: spec.schema ? (spec.consumer ?? spec.group) : spec.group });
  const apply = durableOrNot(runtime.db, spec);
  await runtime.bus.subscribe({
    group: spec.group,
    topics,
    ...(spec.broadcast ? { broadcast: spec.broadcast } : {}),
    handler: async (envelope: EventEnvelope) => {
      if (!isHandled(envelope.type)) return;
      const check = validatorOf(envelope.type);
      if (!isEventOf<T>(envelope, check)) {
        log.error(
          { eventId: envelope.id, type: envelope.type, errors: [...check.Errors(envelope.data)].slice(0, 5).map(errorText) },
          'malformed event skipped',
        );
        return;
      }
      await apply(envelope);
    },
  });
}

/**
 * An envelope whose data passed its type's schema (`check`, validatorOf its type): an EventOf that type.
 * (The caller has checked that its type is one of T.)
 */
function isEventOf<T extends EventType>(envelope: EventEnvelope, check: TypeCheck<TSchema>): envelope is EventOf<T> {
  return check.Check(envelope.data);
}

function durableOrNot<T extends EventType>(db: Db, spec: ConsumerSpec<T>): (event: EventOf<T>) => Promise<void> {
  if (spec.schema === undefined) return spec.handler;
  const { schema, handler } = spec;
  const consumer = spec.consumer ?? spec.group;
  return async (event) => {
    await db.transaction(async (tx) => {
      const res = await tx.execute(sql`
        insert into ${sql.identifier(schema)}.processed_events (consumer, event_id)
        values (${consumer}, ${event.id}) on conflict do nothing returning event_id`);
      if (res.rows.length === 0) return; // already handled
      await handler(event, tx);
    });
  };
}

const validators = new Map<string, TypeCheck<TSchema>>();

/** The compiled proto schema of an event type's data (compiled once per process). */
export function validatorOf(type: EventType): TypeCheck<TSchema> {
  let v = validators.get(type);
  if (!v) {
    registerFormats();
    const schema: TSchema = EVENT_TYPES[type];
    v = TypeCompiler.Compile(schema);
    validators.set(type, v);
  }
  return v;
}

function errorText(e: { path: string; message: string }) {
  return `${e.path || '/'}: ${e.message}`;
}

/**
 * TypeBox checks a string `format` only when the format is registered (an unknown one fails every
 * value). The formats proto uses get ajv-formats' definitions, the ones the routes validate with.
 */
export function registerFormats(): void {
  for (const name of ['date', 'date-time', 'email', 'uuid', 'uri'] as const) {
    if (FormatRegistry.Has(name)) continue;
    const f = fullFormats[name];
    const test =
      f instanceof RegExp
        ? (v: string) => f.test(v)
        : typeof f === 'function'
          ? (v: string) => Boolean(f(v))
          : typeof f === 'object' && f !== null && 'validate' in f
            ? // (ajv's type admits number and async validators too; these formats' validators take a string and answer at once)
              (v: string) => (f.validate instanceof RegExp ? f.validate.test(v) : Boolean((f.validate as (s: string) => boolean)(v)))
            : () => true;
    FormatRegistry.Set(name, test);
  }
}
