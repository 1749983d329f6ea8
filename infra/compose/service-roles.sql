-- Each service's own PostgreSQL role (docker-compose.yml's db-roles, run on every `up`; idempotent).
-- The roles may sign in and nothing else: each service migrates as the owner (DATABASE_MIGRATION_URL),
-- which then grants its role its own schema and the jobs platform's (kit's runMigrations). Names are
-- `<database>_<service>` (kit's serviceRoleName). Passwords: `<password_prefix>-<service>`, with the
-- prefix given by the compose file: local credentials, change them for anything else.
\set ON_ERROR_STOP on
SELECT format('CREATE ROLE %I', 'countinghouse_' || s)
  FROM unnest(ARRAY['settings', 'identity', 'crm', 'documents', 'billing', 'integrations', 'media',
                    'notifications', 'deadlines', 'aml', 'engagement', 'requests', 'records']) AS s
 WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'countinghouse_' || s)
\gexec
SELECT format('ALTER ROLE %I LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOINHERIT PASSWORD %L',
              'countinghouse_' || s, :'password_prefix' || '-' || s)
  FROM unnest(ARRAY['settings', 'identity', 'crm', 'documents', 'billing', 'integrations', 'media',
                    'notifications', 'deadlines', 'aml', 'engagement', 'requests', 'records']) AS s
\gexec
