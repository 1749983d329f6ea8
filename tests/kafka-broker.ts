import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, repoRoot } from './processes.js';

/**
 * A Kafka broker of the caller's own (infra/kafka/kafka.sh in a folder of its own, on free ports), for a
 * product that must not share npm test's broker: the whole product under faults stops its broker for
 * 30 s, and the browser-distributed project's product runs beside tests/distributed/kafka-outbox, which
 * stops the shared one.
 */
export interface OwnKafka {
  /** host:port, as KAFKA_BROKERS takes it */
  brokers: string;
  /** Start the broker again after stop() (same folder and ports: its topics and offsets are kept). */
  start(): string;
  /** Stop the broker (the folder is kept for start()). */
  stop(): void;
  /** Stop the broker and remove its folder. */
  remove(): void;
}

export async function startOwnKafka(prefix = 'ch-kafka-'): Promise<OwnKafka> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/root',
    INFRA_RUN_DIR: dir,
    KAFKA_PORT: String(await freePort()),
    KAFKA_CONTROLLER_PORT: String(await freePort()),
  };
  const kafka = (cmd: 'start' | 'stop'): string => {
    const r = spawnSync('bash', [join(repoRoot, 'infra', 'kafka', 'kafka.sh'), cmd], { env, encoding: 'utf8', timeout: 150_000 });
    if (r.status !== 0) throw new Error(`kafka ${cmd} failed:\n${r.stderr}`);
    return /KAFKA_BROKERS=(\S+)/.exec(r.stdout)?.[1] ?? '';
  };
  let brokers: string;
  try {
    brokers = kafka('start');
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    brokers,
    start: () => kafka('start'),
    stop: () => void kafka('stop'),
    remove() {
      spawnSync('bash', [join(repoRoot, 'infra', 'kafka', 'kafka.sh'), 'stop'], { env, timeout: 90_000 });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
