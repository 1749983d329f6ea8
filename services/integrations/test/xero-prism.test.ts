import Fastify, { type FastifyInstance } from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseIntegrationsConfig, providerSettings } from '../src/config.js';
import type { ProviderAdapter } from '../src/adapters/adapter.js';
import { ProviderError } from '../src/adapters/http.js';
import { xeroAdapter } from '../src/adapters/xero.js';
import { cutSpec, startPrism, type PrismServer } from './prism.js';

/**
 * The Xero adapter against Xero's own OpenAPI files (XeroAPI/Xero-OpenAPI, in ../shared/provider-specs)
 * served by Prism, behind a thin proxy that adds what the files do not describe: a 429 with
 * Retry-After (Xero's minute limit) and a 401 for an expired access token.
 */
const SPECS = '/work/shared/provider-specs';

let dir: string;
let identity: PrismServer;
let accounting: PrismServer;
let proxy: FastifyInstance;
let proxyUrl = '';
/** Answers the proxy gives before Prism's, one per API call. */
const injected: Array<{ status: 429; retryAfter: string } | { status: 401 }> = [];
/** What Prism answered each forwarded call: every one must be accepted by Xero's description. */
const prismAnswers: Array<{ path: string; status: number }> = [];

/**
 * xero-identity.yaml spells the example of GET /Connections as a quoted string, not an array (a
 * defect of the file: Xero answers an array). Prism would serve the string; the copy served here has
 * the example parsed into the array it spells. The shared file is left as it is.
 */
function fixConnectionsExample(spec: Record<string, unknown>) {
  const json = (
    spec as { paths: Record<string, { get: { responses: Record<string, { content: Record<string, { example?: unknown }> }> } }> }
  ).paths['/Connections']!.get.responses['200']!.content['application/json']!;
  expect(typeof json.example).toBe('string');
  json.example = JSON.parse(String(json.example));
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'xero-prism-'));
  const identitySpec = cutSpec(join(SPECS, 'xero-identity.yaml'), ['/Connections'], join(dir, 'identity.json'), fixConnectionsExample);
  const accountingSpec = cutSpec(
    join(SPECS, 'xero_accounting.yaml'),
    ['/Organisation', '/Contacts', '/Invoices', '/Accounts', '/Reports/ProfitAndLoss'],
    join(dir, 'accounting.json'),
  );
  [identity, accounting] = await Promise.all([startPrism(identitySpec), startPrism(accountingSpec)]);
  proxy = Fastify({ logger: false, forceCloseConnections: true });
  proxy.all('/*', async (req, reply) => {
    const url = req.url;
    const isApi = url.startsWith('/api.xro/2.0/');
    if (isApi) {
      const next = injected.shift();
      if (next?.status === 429) {
        return reply.status(429).header('retry-after', next.retryAfter).header('x-rate-limit-problem', 'minute').send('');
      }
      if (next?.status === 401) {
        return reply
          .status(401)
          .header('www-authenticate', 'Bearer error="invalid_token"')
          .send({ Type: null, Title: 'Unauthorized', Status: 401, Detail: 'TokenExpired: token expired at 01/01/2026 00:00:00' });
      }
    }
    const target = isApi ? `${accounting.url}${url.slice('/api.xro/2.0'.length)}` : `${identity.url}${url}`;
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
    const res = await fetch(target, { method: req.method, headers });
    prismAnswers.push({ path: url, status: res.status });
    return reply
      .status(res.status)
      .header('content-type', res.headers.get('content-type') ?? 'application/json')
      .send(await res.text());
  });
  proxyUrl = await proxy.listen({ port: 0, host: '127.0.0.1' });
}, 300_000);

afterAll(async () => {
  await proxy?.close();
  await Promise.allSettled([identity?.stop(), accounting?.stop()]);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const NOW = new Date('2026-03-02T10:00:00Z');

function adapter(): ProviderAdapter {
  const config = parseIntegrationsConfig({
    XERO_CLIENT_ID: 'id',
    XERO_CLIENT_SECRET: 'secret',
    XERO_CONNECTIONS_URL: `${proxyUrl}/Connections`,
    XERO_API_URL: `${proxyUrl}/api.xro/2.0`,
    // Prism builds its answer for /Invoices from a large schema: seconds on a busy machine.
    INTEGRATIONS_PROVIDER_TIMEOUT_MS: '110000',
  });
  return xeroAdapter(providerSettings(config, 'http://localhost:3000').xero, { now: () => NOW, beforeCall: async () => {} });
}

/** The examples Prism serves, read straight from it (not through our adapter), to compute what the summary must say. */
async function example<T>(path: string): Promise<T> {
  const res = await fetch(`${accounting.url}${path}`, {
    headers: { authorization: 'Bearer example', 'xero-tenant-id': 'fe79f7dd-b6d4-4a92-ba7b-538af6289c58', accept: 'application/json' },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

describe('Xero, against its own OpenAPI files (Prism)', () => {
  it('finds the organisation in GET /Connections', async () => {
    const org = await adapter().organisation('access-token', {});
    expect(org).toEqual({
      externalId: 'fe79f7dd-b6d4-4a92-ba7b-538af6289c58',
      connectionId: '7cb59f93-2964-421d-bb5e-a0f7a4572a44',
      companyName: 'Demo Company (NZ)',
    });
  });

  it(
    'summarises Organisation, Contacts and Invoices as documented; Xero’s description accepts every request',
    { timeout: 120_000 },
    async () => {
      prismAnswers.length = 0;
      const progress: number[] = [];
      const result = await adapter().summarise('access-token', 'fe79f7dd-b6d4-4a92-ba7b-538af6289c58', async (p) => void progress.push(p));
      expect(prismAnswers.length).toBeGreaterThanOrEqual(3);
      expect(prismAnswers.filter((a) => a.status !== 200)).toEqual([]);
      expect(progress).toEqual([20, 45, 85]);

      const org = await example<{ Organisations: Array<{ Name: string; BaseCurrency: string }> }>('/Organisation');
      const contacts = await example<{ Contacts: unknown[] }>('/Contacts');
      const invoices = await example<{ Invoices: Array<{ Type: string; Status: string }> }>('/Invoices');
      const open = invoices.Invoices.filter((i) => i.Status === 'AUTHORISED');
      expect(result.companyName).toBe(org.Organisations[0]!.Name);
      expect(result.summary).toMatchObject({
        currency: org.Organisations[0]!.BaseCurrency,
        contacts: contacts.Contacts.length,
        invoices: open.filter((i) => i.Type === 'ACCREC').length,
        bills: open.filter((i) => i.Type === 'ACCPAY').length,
      });
    },
  );

  it(
    'reads the chart of accounts and the profit and loss for MTD (issue 31) as Xero’s description allows',
    { timeout: 120_000 },
    async () => {
      prismAnswers.length = 0;
      const lines = await adapter().ledger('access-token', 'fe79f7dd-b6d4-4a92-ba7b-538af6289c58', {
        from: '2026-04-06',
        to: '2026-07-05',
        basis: 'cash',
      });
      expect(prismAnswers.map((a) => [a.path.split('?')[0], a.status])).toEqual([
        ['/api.xro/2.0/Accounts', 200],
        ['/api.xro/2.0/Reports/ProfitAndLoss', 200],
      ]);
      // The file has no example report: Prism builds one from the schema, whose rows name no account.
      expect(Array.isArray(lines)).toBe(true);
      // A parameter Xero's description does not allow is refused (Prism's 422): the check above can fail.
      const bad = await fetch(`${accounting.url}/Reports/ProfitAndLoss?standardLayout=perhaps`, {
        headers: { authorization: 'Bearer x', 'xero-tenant-id': 'fe79f7dd-b6d4-4a92-ba7b-538af6289c58', accept: 'application/json' },
      });
      expect(bad.status).toBe(422);
    },
  );

  it('a 429 with Retry-After: 7 is a rate_limited error whose retry time is 7 s later', async () => {
    injected.push({ status: 429, retryAfter: '7' });
    const err = await adapter()
      .summarise('access-token', 'fe79f7dd-b6d4-4a92-ba7b-538af6289c58', async () => {})
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err).toMatchObject({ failure: 'rate_limited', status: 429 });
    expect((err as ProviderError).retryAt?.toISOString()).toBe('2026-03-02T10:00:07.000Z');
  });

  it('a 401 for an expired access token is "unauthorized" (the service refreshes once and tries again)', async () => {
    injected.push({ status: 401 });
    const err = await adapter()
      .summarise('access-token', 'fe79f7dd-b6d4-4a92-ba7b-538af6289c58', async () => {})
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ failure: 'unauthorized', status: 401 });
    expect((err as ProviderError).retryAt).toBeUndefined();
  });
});
