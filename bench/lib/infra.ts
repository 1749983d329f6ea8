import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from './proc.js';

export type InfraName = 'postgres' | 'redis' | 'kafka' | 'nginx';

const SCRIPTS: Record<InfraName, string> = {
  postgres: 'infra/postgres.sh',
  redis: 'infra/redis.sh',
  kafka: 'infra/kafka/kafka.sh',
  nginx: 'infra/nginx/nginx.sh',
};

const TIMEOUTS_MS: Record<InfraName, number> = { postgres: 60_000, redis: 30_000, kafka: 150_000, nginx: 30_000 };

/**
 * The bench's own servers, by default in infra/.run/bench on ports of their own, so a test run
 * (scripts/test.sh starts and stops the default ones) and the bench never stop each other's servers.
 * BENCH_INFRA_RUN_DIR=infra/.run (with BENCH_PG_PORT=55432 and so on) shares the default ones instead.
 */
export function benchInfraEnv(): Record<string, string> {
  const e = process.env;
  return {
    INFRA_RUN_DIR: e.BENCH_INFRA_RUN_DIR ? join(REPO_ROOT, e.BENCH_INFRA_RUN_DIR) : join(REPO_ROOT, 'infra', '.run', 'bench'),
    PG_PORT: e.BENCH_PG_PORT ?? '55532',
    REDIS_PORT: e.BENCH_REDIS_PORT ?? '56479',
    KAFKA_PORT: e.BENCH_KAFKA_PORT ?? '59192',
    KAFKA_CONTROLLER_PORT: e.BENCH_KAFKA_CONTROLLER_PORT ?? '59193',
    NGINX_PORT: e.BENCH_NGINX_PORT ?? '58180',
  };
}

interface ScriptRun {
  code: number;
  stdout: string;
  stderr: string;
}

function runScript(name: InfraName, cmd: string, env: Record<string, string>): Promise<ScriptRun> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      [join(REPO_ROOT, SCRIPTS[name]), cmd],
      { cwd: REPO_ROOT, env: { ...process.env, ...env }, timeout: TIMEOUTS_MS[name], maxBuffer: 4 << 20 },
      (err, stdout, stderr) => {
        const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

function parseKeyValues(out: string): Record<string, string> {
  const vals: Record<string, string> = {};
  for (const line of out.split('\n')) {
    const m = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (m) vals[m[1]!] = m[2]!;
  }
  return vals;
}

/**
 * Starts what the bench needs unless it already runs (then it is reused and left running), and
 * stops, at the end, only what it started.
 */
export class Infra {
  private readonly env = benchInfraEnv();
  private readonly running = new Map<InfraName, Promise<Record<string, string>>>();
  private readonly started: InfraName[] = [];
  readonly reused: InfraName[] = [];

  constructor(private readonly log: (msg: string) => void) {}

  get runDir() {
    return this.env.INFRA_RUN_DIR!;
  }

  /** The KEY=value lines of a running server (DATABASE_URL=..., REDIS_URL=..., KAFKA_BROKERS=...). */
  ensure(name: InfraName): Promise<Record<string, string>> {
    let p = this.running.get(name);
    if (!p) {
      p = this.ensureNow(name);
      this.running.set(name, p);
      p.catch(() => this.running.delete(name));
    }
    return p;
  }

  private async ensureNow(name: InfraName, extraEnv: Record<string, string> = {}): Promise<Record<string, string>> {
    const status = await runScript(name, 'status', this.env);
    if (status.code === 0) {
      this.log(`${name}: already running, reused (${firstValue(status.stdout)})`);
      this.reused.push(name);
      return parseKeyValues(status.stdout);
    }
    const t0 = Date.now();
    const res = await runScript(name, 'start', { ...this.env, ...extraEnv });
    if (res.code !== 0)
      throw new Error(`${SCRIPTS[name]} start failed (exit ${res.code}):\n${res.stderr.trim().split('\n').slice(-15).join('\n')}`);
    this.started.push(name);
    this.log(`${name}: started in ${((Date.now() - t0) / 1000).toFixed(1)} s (${firstValue(res.stdout)})`);
    return parseKeyValues(res.stdout);
  }

  /**
   * nginx in front of one upstream (host:port). Its config names the upstream, so a leftover nginx
   * of ours is restarted rather than reused.
   */
  async nginxFor(upstream: string): Promise<Record<string, string>> {
    const status = await runScript('nginx', 'status', this.env);
    if (status.code === 0) {
      this.log('nginx: a previous bench nginx is running; restarting it for this upstream');
      await runScript('nginx', 'stop', this.env);
    }
    this.running.delete('nginx');
    const p = this.ensureNow('nginx', { NGINX_UPSTREAM: upstream });
    this.running.set('nginx', p);
    return p;
  }

  /** Stop what this run started, newest first. */
  async stopStarted(keep = false): Promise<void> {
    const toStop = [...this.started].reverse();
    this.started.length = 0;
    for (const name of toStop) {
      if (keep && name !== 'nginx') {
        this.log(
          `${name}: left running (BENCH_KEEP_INFRA=1); stop it with INFRA_RUN_DIR=${this.env.INFRA_RUN_DIR} bash ${SCRIPTS[name]} stop`,
        );
        continue;
      }
      const t0 = Date.now();
      const res = await runScript(name, 'stop', this.env);
      if (res.code !== 0) this.log(`${name}: stop failed (exit ${res.code}): ${res.stderr.trim().split('\n').slice(-3).join(' | ')}`);
      else this.log(`${name}: stopped in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    }
  }
}

function firstValue(out: string): string {
  const v = Object.entries(parseKeyValues(out))[0];
  return v ? `${v[0]}=${v[1]}` : 'no KEY=value line';
}
