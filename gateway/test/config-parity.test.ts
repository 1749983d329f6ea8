import { ConfigError, conflictingSettings, dataFolderEnv, parseServiceConfig, type ServiceDescriptor } from '@countinghouse/kit';
import { SERVICES } from '@countinghouse/proto';
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { beforeAll, describe, expect, it } from 'vitest';
import { AllInOneConfigSchema, parseAllInOneConfig } from '../src/all-in-one.js';
import { loadServices } from '../src/services.js';

/**
 * Issue 27: the all-in-one server and the distributed product refuse exactly the same configurations.
 * A table over every descriptor's schema: for each variable, values its rules refuse, each tried in
 * both modes; and the rules across variables (checkConfig), tried with the examples below.
 */

type Env = Record<string, string | undefined>;
let descriptors: ServiceDescriptor[];

beforeAll(async () => {
  descriptors = await loadServices();
});

const refused = (parse: () => unknown): string | null => {
  try {
    parse();
    return null;
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
};

/** `npm start` with these variables. */
const allInOne = (env: Env) => refused(() => parseAllInOneConfig(env, descriptors));

/** The service's own process (startService's parse), with what the distributed launcher gives it from the data folder. */
const distributed = (d: ServiceDescriptor, env: Env) =>
  refused(() => parseServiceConfig(d, { ...dataFolderEnv([d], env, null, (folder) => `/tmp/${folder}`), ...env }));

/** Values the property's schema refuses (each checked to be refused by the schema itself). */
function badValues(schema: TSchema): string[] {
  const s = schema as { type?: string; anyOf?: unknown[]; pattern?: string; minimum?: number; maximum?: number; maxLength?: number };
  const out: string[] = [];
  if (s.type === 'integer') {
    out.push('twelve');
    if (s.minimum !== undefined) out.push(String(s.minimum - 1));
    if (s.maximum !== undefined) out.push(String(s.maximum + 1));
  } else if (s.type === 'boolean') out.push('perhaps');
  else if (s.anyOf) out.push('none-of-these');
  else if (s.type === 'string') {
    if (s.pattern)
      out.push(...['ftp://example.com', 'not valid at all ::', '!!'].filter((v) => !new RegExp(s.pattern ?? '').test(v)).slice(0, 1));
    if (s.maxLength !== undefined) out.push('x'.repeat(s.maxLength + 1));
  }
  return out;
}

describe('the two run modes take and refuse the same settings (issue 27)', () => {
  it('every entry of SERVICES has a descriptor, in the same order', () => {
    expect(descriptors.map((d) => d.name)).toEqual([...SERVICES]);
  });

  it('a variable declared by two services (or by the all-in-one and a service) has the same rules in each', () => {
    const launcher: ServiceDescriptor = {
      name: 'all-in-one launcher',
      configSchema: AllInOneConfigSchema,
      plugin: async () => {},
      options: () => ({}),
    };
    expect(conflictingSettings([...descriptors, launcher])).toEqual([]);
  });

  it('with nothing set, both modes start', () => {
    expect(allInOne({})).toBeNull();
    for (const d of descriptors) expect(distributed(d, {}), d.name).toBeNull();
  });

  it("each variable's refused values are refused by both modes, naming the variable", () => {
    let tried = 0;
    for (const d of descriptors)
      for (const [key, schema] of Object.entries(d.configSchema.properties)) {
        for (const bad of badValues(schema)) {
          expect(Value.Check(schema, Value.Convert(schema, bad)), `${key}=${bad} is a refused value`).toBe(false);
          const env = { [key]: bad };
          const one = allInOne(env);
          const own = distributed(d, env);
          expect(one, `npm start with ${key}=${bad}`).toContain(key);
          expect(own, `${d.name}'s own process with ${key}=${bad}`).toContain(key);
          tried++;
        }
      }
    // the table is not empty: ports, timeouts, addresses and switches of every kind are tried
    expect(tried).toBeGreaterThan(20);
  });

  // The rules across variables (each descriptor's checkConfig), with a configuration each refuses and one it takes.
  const RULES: Array<{ service: string; refused: Env; taken: Env; says: string }> = [
    {
      service: 'billing',
      refused: { STRIPE_SECRET_KEY: 'sk_test_123' },
      taken: { STRIPE_SECRET_KEY: 'sk_test_123', STRIPE_WEBHOOK_SECRET: 'whsec_123' },
      says: 'STRIPE_WEBHOOK_SECRET',
    },
    {
      service: 'billing',
      refused: { STRIPE_SECRET_KEY: 'sk_test_123', STRIPE_WEBHOOK_SECRET: 'whsec_123', STRIPE_API_BASE: 'localhost:12111' },
      taken: { STRIPE_SECRET_KEY: 'sk_test_123', STRIPE_WEBHOOK_SECRET: 'whsec_123', STRIPE_API_BASE: 'http://localhost:12111' },
      says: 'STRIPE_API_BASE',
    },
    {
      service: 'media',
      refused: { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' },
      taken: { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1', OPENAI_API_KEY: 'any' },
      says: 'OPENAI_API_KEY',
    },
    {
      service: 'integrations',
      refused: { XERO_CLIENT_ID: 'abc' },
      taken: { XERO_CLIENT_ID: 'abc', XERO_CLIENT_SECRET: 'def' },
      says: 'XERO',
    },
    {
      service: 'integrations',
      refused: { QUICKBOOKS_CLIENT_SECRET: 'def' },
      taken: { QUICKBOOKS_CLIENT_ID: 'abc', QUICKBOOKS_CLIENT_SECRET: 'def' },
      says: 'QUICKBOOKS',
    },
    {
      service: 'integrations',
      refused: { INTEGRATIONS_ENCRYPTION_KEY: Buffer.alloc(16).toString('base64') },
      taken: { INTEGRATIONS_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') },
      says: 'INTEGRATIONS_ENCRYPTION_KEY',
    },
    {
      service: 'documents',
      refused: { S3_ENDPOINT: 'http://127.0.0.1:9000', S3_BUCKET: 'documents' },
      taken: {
        S3_ENDPOINT: 'http://127.0.0.1:9000',
        S3_BUCKET: 'documents',
        S3_REGION: 'eu-west-2',
        S3_ACCESS_KEY_ID: 'key',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_FORCE_PATH_STYLE: 'true',
      },
      says: 'S3_REGION',
    },
    {
      service: 'documents',
      refused: { DOCUMENTS_LINK_SECRET_FILE: '/nonexistent/documents-link.secret' },
      taken: { DOCUMENTS_LINK_SECRET: 'x'.repeat(32) },
      says: 'DOCUMENTS_LINK_SECRET_FILE',
    },
  ];

  it.each(RULES)('$service: $says', ({ service, refused: bad, taken, says }) => {
    const d = descriptors.find((x) => x.name === service);
    expect(d, service).toBeDefined();
    if (!d) return;
    expect(allInOne(bad), 'npm start').toContain(says);
    expect(distributed(d, bad), `${service}'s own process`).toContain(says);
    expect(allInOne(taken), 'npm start').toBeNull();
    expect(distributed(d, taken), `${service}'s own process`).toBeNull();
  });

  it('every problem is said at once: two services refused in one start', () => {
    const message = allInOne({ PORT: 'eighty', OPENAI_TIMEOUT_MS: '5', XERO_CLIENT_ID: 'abc' }) ?? '';
    for (const key of ['PORT', 'OPENAI_TIMEOUT_MS', 'XERO']) expect(message).toContain(key);
  });
});
