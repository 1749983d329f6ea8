import './kafkajs-request-queue.js'; // before any Kafka client: no 1 ms loop over an empty request queue
import { Kafka, logLevel } from 'kafkajs';
import { kafkaSasl } from './bus.js';
import { createServer } from 'node:http';
import pg from 'pg';
import type { Logger } from 'pino';
import type { KafkaClientOptions } from './config.js';

/**
 * A process started before PostgreSQL or Kafka is up waits for them instead of exiting (issue 20): it
 * answers /health/live 200 and /health/ready 503 meanwhile (a temporary listener on its port, closed
 * before the app listens there), says what it waits for, and tries again after 1 s, 2 s, 4 s, … at most
 * 30 s, until each answers.
 */
export interface Dependency {
  name: string;
  /** Resolves when the dependency answers; rejects with why not. */
  check: () => Promise<void>;
}

export const WAIT_BACKOFF = { firstMs: 1000, maxMs: 30_000 };

export function postgresDependency(url: string): Dependency {
  return {
    name: 'PostgreSQL',
    async check() {
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
      try {
        await client.connect();
        await client.query('select 1');
      } finally {
        await client.end().catch(() => {});
      }
    },
  };
}

export function kafkaDependency(brokers: string[], clientId: string, security: Pick<KafkaClientOptions, 'ssl' | 'sasl'> = {}): Dependency {
  return {
    name: 'Kafka',
    async check() {
      // With the process's own TLS/SASL settings: a broker that only takes authenticated clients answers these.
      const admin = new Kafka({
        brokers,
        clientId,
        logLevel: logLevel.NOTHING,
        retry: { retries: 0 },
        connectionTimeout: 5000,
        ...(security.ssl ? { ssl: security.ssl } : {}),
        ...(security.sasl ? { sasl: kafkaSasl(security.sasl) } : {}),
      }).admin();
      try {
        await admin.connect();
        await admin.describeCluster();
      } finally {
        await admin.disconnect().catch(() => {});
      }
    },
  };
}

export async function waitForDependencies(
  deps: Dependency[],
  o: { logger: Logger; port?: number; host?: string; sleep?: (ms: number) => Promise<void> },
): Promise<void> {
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const tryAll = async (list: Dependency[]) =>
    (
      await Promise.all(
        list.map(async (d) => ({
          d,
          err: await d.check().then(
            () => null,
            (e: Error) => e,
          ),
        })),
      )
    ).filter((x): x is { d: Dependency; err: Error } => x.err !== null);
  let waiting = await tryAll(deps);
  if (waiting.length === 0) return;
  // Live but not ready while waiting.
  const server =
    o.port !== undefined
      ? createServer((req, res) => {
          const live = req.url === '/health/live';
          res.writeHead(live ? 200 : 503, { 'content-type': 'application/json' });
          res.end(JSON.stringify(live ? { status: 'ok' } : { status: 'waiting', waitingFor: waiting.map((w) => w.d.name) }));
        })
      : null;
  if (server) await new Promise<void>((ok, fail) => server.once('error', fail).listen(o.port, o.host, () => ok()));
  try {
    for (let attempt = 0; waiting.length > 0; attempt++) {
      const delay = Math.min(WAIT_BACKOFF.firstMs * 2 ** attempt, WAIT_BACKOFF.maxMs);
      for (const w of waiting)
        o.logger.warn({ dependency: w.d.name, err: w.err.message }, `waiting for ${w.d.name}: trying again in ${delay / 1000} s`);
      await sleep(delay);
      waiting = await tryAll(waiting.map((w) => w.d));
    }
    o.logger.info('every dependency answers: starting');
  } finally {
    if (server) {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  }
}
