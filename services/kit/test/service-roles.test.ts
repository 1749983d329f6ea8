import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureLoginRole, migrateAs, roleOf, runMigrations, serviceRoleName, urlWithRole } from '../src/db.js';
import { migrateJobsSchema } from '../src/jobs.js';
import { createTestDatabase, testServerUrl, type TestDatabase } from '../src/testing/index.js';

// A service's own PostgreSQL role (issue 20): the launcher and compose create one per service; the
// service migrates as the owner (DATABASE_MIGRATION_URL), which then grants its role its own schemas
// and nothing else. Connected as crm's role, identity's tables are refused; crm's own work succeeds.

const folder = (service: string) => fileURLToPath(new URL(`../../${service}/drizzle`, import.meta.url));

let db: TestDatabase;
let owner: pg.Client;
let crm: pg.Pool;
const roles: string[] = [];

beforeAll(async () => {
  db = await createTestDatabase();
  owner = new pg.Client({ connectionString: db.url });
  await owner.connect();
  for (const service of ['crm', 'identity']) {
    const role = serviceRoleName(db.name, service);
    roles.push(role);
    await ensureLoginRole(owner, role, `pw-${service}`);
    await ensureLoginRole(owner, role, `pw-${service}`); // (twice: idempotent)
  }
  crm = new pg.Pool({ connectionString: urlWithRole(db.url, roles[0]!, 'pw-crm'), max: 2 });
  // What startService does with DATABASE_MIGRATION_URL: crm's and the jobs platform's migrations run
  // as the owner (all applied already in the template: only the grants are new), then serve as the role.
  migrateAs(crm, db.url);
  await runMigrations(crm, 'crm', folder('crm'));
  await migrateJobsSchema(crm);
});

afterAll(async () => {
  await crm?.end();
  await owner?.end();
  await db?.drop();
  // (roles belong to the server: the test database's drop removes its services' roles too)
  const admin = new pg.Client({ connectionString: testServerUrl() });
  await admin.connect();
  const left = await admin.query('select rolname from pg_roles where rolname = any($1)', [roles]);
  await admin.end();
  expect(left.rows).toEqual([]);
});

async function refusal(sql: string): Promise<string> {
  const err = await crm.query(sql).then(
    () => null,
    (e: { code?: string; message: string }) => e,
  );
  return err ? `${err.code}: ${err.message}` : 'allowed';
}

describe("a service's own role", () => {
  it('connects as its own role, not the owner', async () => {
    const { rows } = await crm.query<{ who: string; superuser: boolean }>(
      `select current_user as who, (select rolsuper from pg_roles where rolname = current_user) as superuser`,
    );
    expect(rows[0]).toEqual({ who: serviceRoleName(db.name, 'crm'), superuser: false });
    expect(roleOf(db.url)).not.toBe(rows[0]!.who);
  });

  it("is refused another service's tables (identity's)", async () => {
    expect(await refusal('select count(*) from identity.admin_users')).toBe('42501: permission denied for schema identity');
    expect(await refusal('select count(*) from identity.outbox')).toMatch(/^42501: permission denied/);
    expect(await refusal('select count(*) from settings.outbox')).toMatch(/^42501: permission denied/);
  });

  it('does its own work: rows of its schema, its outbox and the jobs platform', async () => {
    const client = await crm.connect();
    try {
      await client.query('begin');
      const tables = await client.query<{ table_name: string }>(
        `select table_name from information_schema.tables where table_schema = 'crm' and table_type = 'BASE TABLE'`,
      );
      expect(tables.rows.length).toBeGreaterThan(3);
      for (const { table_name } of tables.rows) await client.query(`select * from crm.${client.escapeIdentifier(table_name)} limit 1`);
      const ins = await client.query<{ id: string }>(
        `insert into crm.outbox (event_id, topic, type, envelope) values (gen_random_uuid(), 'crm', 'crm.test', '{}') returning id`,
      );
      expect(Number(ins.rows[0]!.id)).toBeGreaterThan(0);
      await client.query(`update crm.outbox set attempts = attempts + 1 where id = $1`, [ins.rows[0]!.id]);
      await client.query(`delete from crm.outbox where id = $1`, [ins.rows[0]!.id]);
      await client.query(`select count(*) from jobs.schedules`);
      await client.query(`select count(*) from jobs.outbox`);
      await client.query('commit');
    } finally {
      client.release();
    }
  });

  it('may not change the schema (DDL is the owner’s, at migration)', async () => {
    expect(await refusal('create table crm.intruder (id int)')).toBe('42501: permission denied for schema crm');
    expect(await refusal('drop table crm.outbox')).toMatch(/^42501: must be owner of table outbox/);
    expect(await refusal('create schema intruder')).toMatch(/^42501: permission denied for database/);
  });

  it('identity’s role is refused crm’s tables in turn (grants follow each service’s own migrations)', async () => {
    const identity = new pg.Client({ connectionString: urlWithRole(db.url, roles[1]!, 'pw-identity') });
    await identity.connect();
    try {
      const err = await identity.query('select count(*) from crm.outbox').catch((e: { code?: string }) => e);
      expect((err as { code?: string }).code).toBe('42501');
    } finally {
      await identity.end();
    }
  });
});
