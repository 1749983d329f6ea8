import { SERVICES } from '@countinghouse/proto';
import { fileURLToPath } from 'node:url';

/**
 * Every service's migrations, applied to the test template database in proto's order (its SERVICES, the
 * one list): each service owns the PostgreSQL schema of its name and keeps its migrations in
 * services/<name>/drizzle (services/kit/test/service-shape.test.ts checks both). Paths, not the service
 * packages: importing every service's plugin to learn them cost each project's global set-up about 5 s
 * (docs/perf/tests.md, session 22).
 */
export const SERVICE_MIGRATIONS = SERVICES.map((name) => ({
  schema: name,
  migrationsFolder: fileURLToPath(new URL(`../services/${name}/drizzle`, import.meta.url)),
}));
