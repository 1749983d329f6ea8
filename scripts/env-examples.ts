// Writes gateway/.env.example and services/<name>/.env.example from each process's config schema (the
// kit's BaseConfigSchema plus the service's own; the gateway's GatewayConfigSchema): every variable it
// reads, with its format, default and whether it is required. `npx tsx scripts/env-examples.ts`.
// gateway/test/env-examples.test.ts fails when a file lacks a variable its process reads, or lists one
// it does not.
import { BaseConfigSchema } from '@countinghouse/kit';
import type { TObject, TSchema } from '@sinclair/typebox';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GatewayConfigSchema, GatewayServiceUrlsSchema } from '../gateway/src/config.js';
import { SERVICE_TABLE } from './distributed.js';

const repoRoot = fileURLToPath(new URL('../', import.meta.url));

/** What each variable is for (one line; the format and default come from the schema). */
const ABOUT: Record<string, string> = {
  NODE_ENV: 'production on a server (secure defaults); development on your machine',
  HOST: 'the address to listen on',
  PORT: 'the port to listen on',
  LOG_LEVEL: 'fatal, error, warn, info, debug, trace or silent',
  DATABASE_URL:
    "PostgreSQL URL, postgres://user:password@host:5432/db; in distributed mode the service's own role (<db>_<service>), limited to its schemas",
  DATABASE_MIGRATION_URL:
    "the owner of the database: migrations and the grants to DATABASE_URL's role run through it at start; empty: as DATABASE_URL",
  DB_POOL_SIZE: 'PostgreSQL connections of this process',
  KAFKA_BROKERS: 'host:port,host:port; required in distributed mode (empty: the all-in-one in-process bus)',
  KAFKA_NAMESPACE: 'prefix of every topic and consumer group (deployments sharing a broker); empty in production',
  REDIS_URL: 'redis://host:6379 (rediss:// for TLS); required in distributed mode (the BullMQ job queues)',
  BULLMQ_PREFIX: 'prefix of the BullMQ keys in Redis',
  JWT_PUBLIC_KEY: 'the Ed25519 public key (PEM, \\n for new lines) that checks sessions; this or JWT_PUBLIC_KEY_FILE is required',
  JWT_PUBLIC_KEY_FILE: 'a file holding that PEM (wins over JWT_PUBLIC_KEY)',
  GATEWAY_PUBLIC_KEY:
    "the gateway's Ed25519 public key (PEM, \\n for new lines): the service then answers only requests the gateway signed (health aside); this or GATEWAY_PUBLIC_KEY_FILE is required in production",
  GATEWAY_PUBLIC_KEY_FILE: 'a file holding that PEM (wins over GATEWAY_PUBLIC_KEY)',
  GATEWAY_SIGNING_KEY:
    'the Ed25519 private key (PEM) that signs every request forwarded to a service; without it services in production refuse them',
  GATEWAY_SIGNING_KEY_FILE: 'a file holding that PEM (wins over GATEWAY_SIGNING_KEY); the gateway alone may read it',
  DEMO_MODE: 'true shows the demo banner and allows the demo practice',
  PUBLIC_URL: 'the address people use (links in e-mails, OAuth callbacks)',
  TRUSTED_PROXIES: "IPs or CIDRs, comma-separated, whose X-Forwarded-For is believed: the gateways' addresses",
  KAFKA_SSL: 'true: connect to Kafka over TLS (the system CAs unless KAFKA_SSL_CA_FILE)',
  KAFKA_SSL_CA_FILE: 'PEM file of the CA that signed the brokers (implies TLS)',
  KAFKA_SSL_CERT_FILE: 'PEM client certificate for mutual TLS (with KAFKA_SSL_KEY_FILE)',
  KAFKA_SSL_KEY_FILE: 'PEM key of that certificate (with KAFKA_SSL_CERT_FILE)',
  KAFKA_SASL_MECHANISM: 'plain, scram-sha-256 or scram-sha-512; empty: no SASL (then no username/password either)',
  KAFKA_SASL_USERNAME: 'required with KAFKA_SASL_MECHANISM',
  KAFKA_SASL_PASSWORD: 'required with KAFKA_SASL_MECHANISM',
  KAFKA_REPLICATION_FACTOR: 'replicas of each topic this process creates (3 on a cluster of three brokers or more)',
  KAFKA_TOPIC_PARTITIONS: 'partitions of each topic this process creates',
  PRACTICE_NAME: "the practice's name until /admin/settings has one",
  PRACTICE_PHONE: "the practice's telephone until /admin/settings has one",
  PRACTICE_EMAIL: "the practice's e-mail until /admin/settings has one",
  JWT_PRIVATE_KEY: 'the Ed25519 private key (PEM) that signs sessions; this or JWT_PRIVATE_KEY_FILE is required',
  JWT_PRIVATE_KEY_FILE: 'a file holding that PEM',
  ADMIN_USERNAME: 'the first administrator, made on the first start',
  ADMIN_PASSWORD: 'its password; empty: generated and printed once',
  IDENTITY_ENCRYPTION_KEY: '32 bytes, base64: encrypts the two-factor secrets at rest; this or the _FILE is required in production',
  IDENTITY_ENCRYPTION_KEY_FILE: 'a file holding that key',
  COOKIE_SECURE: 'true behind HTTPS: session cookies are Secure',
  SMTP_URL: 'smtp://user:password@host:587; empty keeps mail in the outgoing-mail log',
  MAIL_FROM: "the From address; empty: the practice's e-mail (required with SMTP_URL when the practice has none)",
  SETTINGS_URL: 'base URL of the settings service (practice details followed at start)',
  GHL_API_KEY: 'GoHighLevel API key (with GHL_LOCATION_ID); empty: no GoHighLevel sync',
  GHL_LOCATION_ID: 'GoHighLevel location (with GHL_API_KEY)',
  GHL_BASE_URL: 'GoHighLevel API base URL; empty: the real one',
  DOCUMENTS_STORAGE_DIR: 'a folder for the files when no S3_* is set (one process only)',
  DOCUMENTS_LINK_SECRET: '32+ characters signing view links; this or DOCUMENTS_LINK_SECRET_FILE is required',
  DOCUMENTS_LINK_SECRET_FILE: 'a file holding that secret',
  S3_ENDPOINT: 'S3-compatible object store (all six S3_* together), e.g. http://minio:9000',
  S3_BUCKET: 'its bucket',
  S3_REGION: 'its region, e.g. eu-west-2',
  S3_ACCESS_KEY_ID: 'its access key',
  S3_SECRET_ACCESS_KEY: 'its secret key',
  S3_FORCE_PATH_STYLE: 'true for MinIO (path-style addresses)',
  STRIPE_SECRET_KEY: 'Stripe secret key (with STRIPE_WEBHOOK_SECRET); empty: no card payments',
  STRIPE_WEBHOOK_SECRET: 'Stripe webhook signing secret (whsec_…)',
  STRIPE_API_BASE: "Stripe API base URL; empty: Stripe's own",
  INTEGRATIONS_ENCRYPTION_KEY: '32 bytes, base64: encrypts stored OAuth tokens; this or the _FILE is required',
  INTEGRATIONS_ENCRYPTION_KEY_FILE: 'a file holding that key',
  XERO_CLIENT_ID: 'Xero app (with XERO_CLIENT_SECRET); empty: Xero not offered',
  XERO_CLIENT_SECRET: 'Xero app secret',
  XERO_REDIRECT_URI: 'empty: PUBLIC_URL/api/integrations/xero/callback',
  XERO_SCOPES: 'OAuth scopes, space-separated',
  XERO_AUTH_URL: 'Xero authorisation endpoint',
  XERO_TOKEN_URL: 'Xero token endpoint',
  XERO_REVOKE_URL: 'Xero revocation endpoint',
  XERO_CONNECTIONS_URL: 'Xero connections endpoint',
  XERO_API_URL: 'Xero Accounting API base',
  QUICKBOOKS_CLIENT_ID: 'QuickBooks app (with QUICKBOOKS_CLIENT_SECRET); empty: QuickBooks not offered',
  QUICKBOOKS_CLIENT_SECRET: 'QuickBooks app secret',
  QUICKBOOKS_REDIRECT_URI: 'empty: PUBLIC_URL/api/integrations/quickbooks/callback',
  QUICKBOOKS_SCOPES: 'OAuth scopes, space-separated',
  QUICKBOOKS_AUTH_URL: 'Intuit authorisation endpoint',
  QUICKBOOKS_TOKEN_URL: 'Intuit token endpoint',
  QUICKBOOKS_REVOKE_URL: 'Intuit revocation endpoint',
  QUICKBOOKS_API_URL: 'QuickBooks Online API base',
  QUICKBOOKS_MINOR_VERSION: 'QuickBooks API minor version',
  HMRC_CLIENT_ID: "HMRC application's client id (Making Tax Digital for Income Tax); empty with the secret: MTD runs offline",
  HMRC_CLIENT_SECRET: "HMRC application's client secret",
  HMRC_BASE_URL: "HMRC's API and OAuth host (sandbox: https://test-api.service.hmrc.gov.uk)",
  HMRC_REDIRECT_URI: 'OAuth redirect registered with HMRC; empty: PUBLIC_URL + /api/integrations/mtd/callback',
  HMRC_VENDOR_PUBLIC_IP: "fraud prevention: the public IP address the practice's servers are reached on (Gov-Vendor-Public-IP)",
  HMRC_PRODUCT_NAME: 'fraud prevention: Gov-Vendor-Product-Name',
  HMRC_PRODUCT_VERSION: 'fraud prevention: the server version in Gov-Vendor-Version',
  INTEGRATIONS_PROVIDER_TIMEOUT_MS: "one provider call's time limit, milliseconds",
  XERO_CALLS_PER_MINUTE: "Xero's limit per organisation",
  XERO_CALLS_PER_DAY: "Xero's daily limit per organisation",
  INTEGRATIONS_SYNC_ATTEMPTS: 'tries of a sync job before it fails',
  INTEGRATIONS_SYNC_BACKOFF_MS: 'first wait between tries, milliseconds (doubles)',
  OPENAI_API_KEY: 'OpenAI key; empty: scripts from templates only',
  OPENAI_BASE_URL: "OpenAI-compatible API base; empty: OpenAI's",
  OPENAI_MODEL: 'the model that writes scripts',
  OPENAI_TIMEOUT_MS: "one call's time limit, milliseconds",
  NOTIFICATIONS_CONSUMER_GROUP: 'the Kafka consumer group; empty: the default',
  COMPANIES_HOUSE_API_KEY: 'Companies House API key; empty: no company look-ups',
  COMPANIES_HOUSE_BASE_URL: 'Companies House API base; empty: the real one',
  AML_EVIDENCE_WAIT_MS: 'how long a check waits for uploaded evidence to be scanned, milliseconds',
  IDENTITY_URL: 'identity base URL(s), comma-separated replicas',
  CRM_URL: 'crm base URL(s), comma-separated replicas; empty: not routed (404)',
  DOCUMENTS_URL: 'documents base URL(s); empty: not routed',
  BILLING_URL: 'billing base URL(s); empty: not routed',
  INTEGRATIONS_URL: 'integrations base URL(s); empty: not routed',
  MEDIA_URL: 'media base URL(s); empty: not routed',
  NOTIFICATIONS_URL: 'notifications base URL(s); empty: not routed',
  DEADLINES_URL: 'deadlines base URL(s); empty: not routed',
  AML_URL: 'aml base URL(s); empty: not routed',
  ENGAGEMENT_URL: 'engagement base URL(s); empty: not routed',
  REQUESTS_URL: 'requests base URL(s); empty: not routed',
  RECORDS_URL: 'records base URL(s); empty: not routed',
  RETENTION_RUN_HOUR: 'hour (London, 0-23) of the daily retention run that erases expired records',
  JOBS_URL: 'the job status API (/api/jobs); empty: NOTIFICATIONS_URL',
  FRONTEND_DIR: 'the built web app; empty: frontend/dist',
  SIGN_IN_RATE_LIMIT: 'sign-in requests per minute per client address, counted at the gateway',
  REDIS_KEY_PREFIX: "prefix of the gateway's keys in Redis",
  HSTS_MAX_AGE: 'Strict-Transport-Security max-age, seconds (behind HTTPS only); 0: not sent',
  TRUST_PROXY: 'true behind a load balancer: believe its X-Forwarded-For',
};

/** Variables a process cannot start without, beyond those its schema gives no default. */
const REQUIRED_IN_DISTRIBUTED = new Set(['KAFKA_BROKERS', 'REDIS_URL']);

export interface ProcessEnv {
  /** e.g. gateway, crm */
  name: string;
  /** the .env.example's path from the repository root */
  file: string;
  schemas: TObject[];
}

/** Every process of the distributed product and the schemas its configuration is parsed with. */
export function processEnvs(): ProcessEnv[] {
  return [
    { name: 'gateway', file: 'gateway/.env.example', schemas: [GatewayConfigSchema, GatewayServiceUrlsSchema] },
    ...SERVICE_TABLE.map((s) => ({ name: s.name, file: `services/${s.name}/.env.example`, schemas: [BaseConfigSchema, s.schema] })),
  ];
}

function formatOf(s: TSchema): string {
  const any = s as { type?: string; anyOf?: Array<{ const?: unknown }>; pattern?: string; minimum?: number; maximum?: number };
  if (any.anyOf) return `one of: ${any.anyOf.map((o) => (o.const === '' ? '(empty)' : String(o.const))).join(', ')}`;
  if (any.type === 'boolean') return 'true or false';
  if (any.type === 'integer') {
    const range = any.minimum !== undefined || any.maximum !== undefined ? ` ${any.minimum ?? ''}..${any.maximum ?? ''}` : '';
    return `whole number${range}`;
  }
  return any.pattern ? `text matching ${any.pattern}` : 'text';
}

export function renderEnvExample(p: ProcessEnv): string {
  const seen = new Map<string, TSchema>();
  for (const schema of p.schemas) for (const [k, v] of Object.entries(schema.properties)) seen.set(k, v as TSchema);
  const lines = [
    `# ${p.name}: every variable its configuration reads (generated by scripts/env-examples.ts from its config`,
    '# schema; gateway/test/env-examples.test.ts keeps them in step). Uncommented lines are required;',
    "# commented ones show their default. Set them in the process's environment (compose's env_file:,",
    "# systemd's EnvironmentFile=, or `set -a; . ./.env; set +a` before `node`): nothing reads a .env by itself.",
    '',
  ];
  for (const [name, schema] of seen) {
    const dflt = (schema as { default?: unknown }).default;
    const required = dflt === undefined || (p.name !== 'gateway' && REQUIRED_IN_DISTRIBUTED.has(name));
    lines.push(`#   ${ABOUT[name] ?? ''}`.trimEnd());
    lines.push(`#   format: ${formatOf(schema)}; ${required ? 'required' : `default: ${dflt === '' ? '(empty)' : String(dflt)}`}`);
    lines.push(required ? `${name}=` : `# ${name}=${dflt === undefined ? '' : String(dflt)}`);
    lines.push('');
  }
  return lines.join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const p of processEnvs()) {
    writeFileSync(join(repoRoot, p.file), renderEnvExample(p));
    process.stdout.write(`${p.file}\n`);
  }
  const missing = [...new Set(processEnvs().flatMap((p) => p.schemas.flatMap((s) => Object.keys(s.properties))))].filter((k) => !ABOUT[k]);
  if (missing.length > 0) process.stderr.write(`no description for: ${missing.join(', ')}\n`);
}
