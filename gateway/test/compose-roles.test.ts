import { serviceRoleName } from '@countinghouse/kit';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { repoRoot } from '../../tests/processes.js';

// docker-compose.yml's per-service PostgreSQL roles (issue 20): every service block connects as its own
// role, made by the db-roles one-shot (infra/compose/service-roles.sql) before it starts, and migrates
// as the owner; services believe forwarded addresses only from compose's private networks.

interface Block {
  command?: string[];
  environment?: Record<string, string | number | boolean>;
  depends_on?: Record<string, { condition?: string }>;
}
const compose = parse(readFileSync(join(repoRoot, 'docker-compose.yml'), 'utf8'), { merge: true }) as { services: Record<string, Block> };
const rolesSql = readFileSync(join(repoRoot, 'infra', 'compose', 'service-roles.sql'), 'utf8');
const serviceDirs = readdirSync(join(repoRoot, 'services'), { withFileTypes: true })
  .filter((d) => d.isDirectory() && d.name !== 'kit')
  .map((d) => d.name);

describe('compose: a PostgreSQL role per service', () => {
  it('every service block connects as its own role, after db-roles, and migrates as the owner', () => {
    for (const service of serviceDirs) {
      // a block runs the service's compiled entry point (dist/processes/<name>.mjs) or its source
      const runs = (b: Block) => {
        const command = (b.command ?? []).join(' ');
        return command.includes(`dist/processes/${service}.mjs`) || command.includes(`services/${service}/`);
      };
      const blocks = Object.entries(compose.services).filter(([, b]) => runs(b));
      expect(blocks.length, `no block runs ${service}`).toBeGreaterThan(0);
      for (const [name, b] of blocks) {
        const env = b.environment ?? {};
        const url = new URL(String(env.DATABASE_URL));
        const owner = new URL(String(env.DATABASE_MIGRATION_URL));
        expect(url.username, `${name}: DATABASE_URL's role`).toBe(serviceRoleName(owner.pathname.slice(1), service));
        expect(url.password, `${name}: the password service-roles.sql gives`).toBe(`countinghouse-${service}`);
        expect(owner.username, `${name}: migrations as the owner`).toBe('postgres');
        expect(b.depends_on?.['db-roles']?.condition, `${name} waits for db-roles`).toBe('service_completed_successfully');
        expect(String(env.TRUSTED_PROXIES), `${name}: TRUSTED_PROXIES`).not.toMatch(/0\.0\.0\.0\/0|^$/);
      }
      expect(rolesSql, `service-roles.sql makes ${service}'s role`).toContain(`'${service}'`);
    }
  });

  it('db-roles runs the SQL with the password prefix the blocks use', () => {
    const roles = compose.services['db-roles']!;
    expect((roles.command ?? []).join(' ')).toContain('password_prefix=countinghouse');
    expect(rolesSql).toMatch(/:'password_prefix' \|\| '-' \|\| s/);
  });
});
