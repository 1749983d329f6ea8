import { migrationsFolder as identityMigrations, SCHEMA as IDENTITY } from '@countinghouse/identity';

/** Every service's migrations, applied to the test template database in this order. */
export const SERVICE_MIGRATIONS = [{ schema: IDENTITY, migrationsFolder: identityMigrations }];
