import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, repoRoot } from './processes.js';

/**
 * A Kafka broker of the caller's own (infra/kafka/kafka.sh in a folder of its own, on free ports), for a
 * file that must not share npm test's broker: the whole product under faults stops its broker for 30 s;
 * the SASL test needs a SASL listener (its settings in `env`).
 */
export interface OwnKafka {
  /** host:port of the plain listener, as KAFKA_BROKERS takes it */
  brokers: string;
  /** what kafka.sh printed when it started (KAFKA_SASL_BROKERS=... among it) */
  output: string;
  /** Start the broker again after stop() (same folder and ports: its topics and offsets are kept). */
  start(): string;
  /** Stop the broker (the folder is kept for start()). */
  stop(): void;
  /** Stop the broker and remove its folder. */
  remove(): void;
}

export async function startOwnKafka(prefix: string, env: Record<string, string> = {}): Promise<OwnKafka> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const all = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/root',
    INFRA_RUN_DIR: dir,
    KAFKA_PORT: String(await freePort()),
    KAFKA_CONTROLLER_PORT: String(await freePort()),
    ...env,
  };
  const kafka = (cmd: 'start' | 'stop'): string => {
    const r = spawnSync('bash', [join(repoRoot, 'infra', 'kafka', 'kafka.sh'), cmd], { env: all, encoding: 'utf8', timeout: 150_000 });
    if (r.status !== 0) throw new Error(`kafka ${cmd} failed:\n${r.stderr}`);
    return r.stdout;
  };
  let output: string;
  try {
    output = kafka('start');
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    brokers: /KAFKA_BROKERS=(\S+)/.exec(output)?.[1] ?? '',
    output,
    start: () => kafka('start'),
    stop: () => void kafka('stop'),
    remove() {
      spawnSync('bash', [join(repoRoot, 'infra', 'kafka', 'kafka.sh'), 'stop'], { env: all, timeout: 90_000 });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
