import Fastify, { type FastifyInstance } from 'fastify';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cutSpec, startPrism, type PrismServer } from '../../integrations/test/prism.js';
import { GhlClient } from '../src/adapters/ghl-client.js';

/**
 * The GoHighLevel client against GoHighLevel's own API file (highlevel-api-docs apps/contacts.json)
 * served by Prism, which checks each request (path, method, the Version header's allowed value, the
 * bearer token, a JSON body). The file documents no body for the search's 200, so the proxy in front
 * answers a request Prism accepted with a page in the shape GoHighLevel's search answers
 * ({ contacts: [... searchAfter], total }); a request Prism refused is passed back as it is.
 */
const SPEC = '/work/shared/provider-specs/ghl/apps/contacts.json';
const KEY = 'pit-prism-key';
const LOCATION = 'loc_prism_1';
const CONTACTS = Array.from({ length: 5 }, (_, i) => ({
  id: `p${i + 1}`,
  firstName: `First${i + 1}`,
  lastName: 'Prism',
  email: `p${i + 1}@prism.example.co.uk`,
  dateAdded: `2026-02-0${i + 1}T09:00:00.000Z`,
  tags: [],
}));

let dir: string;
let prism: PrismServer;
let proxy: FastifyInstance;
let proxyUrl = '';
const verdicts: Array<{ method: string; path: string; status: number }> = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ghl-prism-'));
  // The file refers to ../common/common-schemas.json: the cut copy keeps that layout.
  mkdirSync(join(dir, 'apps'));
  mkdirSync(join(dir, 'common'));
  copyFileSync(join(SPEC, '../../common/common-schemas.json'), join(dir, 'common', 'common-schemas.json'));
  prism = await startPrism(cutSpec(SPEC, ['/contacts/search', '/contacts/'], join(dir, 'apps', 'contacts.json')));
  proxy = Fastify({ logger: false, forceCloseConnections: true });
  proxy.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  proxy.all('/*', async (req, reply) => {
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
    const raw = typeof req.body === 'string' ? req.body : undefined;
    const res = await fetch(`${prism.url}${req.url}`, { method: req.method, headers, body: raw });
    const text = await res.text();
    verdicts.push({ method: req.method, path: req.url.split('?')[0]!, status: res.status });
    if (res.status >= 300 || req.url !== '/contacts/search') return reply.status(res.status).type('application/json').send(text);
    const body = JSON.parse(raw ?? '{}') as { pageLimit: number; page?: number; searchAfter?: unknown[] };
    const size = Math.min(body.pageLimit, 2);
    const start = body.searchAfter ? CONTACTS.findIndex((c) => c.id === body.searchAfter![1]) + 1 : ((body.page ?? 1) - 1) * size;
    const page = CONTACTS.slice(start, start + size).map((c) => ({
      ...c,
      locationId: LOCATION,
      searchAfter: [Date.parse(c.dateAdded), c.id],
    }));
    return { contacts: page, total: CONTACTS.length };
  });
  proxyUrl = await proxy.listen({ port: 0, host: '127.0.0.1' });
}, 300_000);

afterAll(async () => {
  await proxy?.close();
  await prism?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('GoHighLevel, against its own API file (Prism)', () => {
  it('every search request of a full import is one the file allows, and every contact arrives', async () => {
    verdicts.length = 0;
    const client = new GhlClient({ apiKey: KEY, locationId: LOCATION, baseUrl: proxyUrl, sleep: async () => {} });
    const contacts = await client.fetchAllContacts();
    expect(contacts.map((c) => c.id)).toEqual(['p1', 'p2', 'p3', 'p4', 'p5']);
    expect(verdicts).toEqual([
      { method: 'POST', path: '/contacts/search', status: 200 },
      { method: 'POST', path: '/contacts/search', status: 200 },
      { method: 'POST', path: '/contacts/search', status: 200 },
    ]);
  });

  it('the file refuses what GoHighLevel refuses: no Version header (or a wrong one), no token', async () => {
    const body = JSON.stringify({ locationId: LOCATION, pageLimit: 10, page: 1 });
    const noVersion = await fetch(`${prism.url}/contacts/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body,
    });
    expect([400, 422]).toContain(noVersion.status);
    const oldVersion = await fetch(`${prism.url}/contacts/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, version: '2021-04-15', 'content-type': 'application/json' },
      body,
    });
    expect([400, 422]).toContain(oldVersion.status);
    const client = new GhlClient({ apiKey: '', locationId: LOCATION, baseUrl: prism.url, sleep: async () => {}, maxRetries: 0 });
    await expect(client.fetchAllContacts()).rejects.toMatchObject({ kind: 'unauthorised' });
  });
});
