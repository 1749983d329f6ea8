import { generateSigningKeys, TokenSigner, TokenVerifier, type App } from '@countinghouse/kit';
import { MESSAGES } from '@countinghouse/proto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../src/gateway.js';
import { freePort } from '../../tests/processes.js';

// Liveness and readiness at the gateway (issue 20): every replica of one service down leaves the gateway
// ready (a load balancer keeps it), its /health/ready report shows that upstream down, that service's
// routes answer 503 in the error shape, and the other services' routes work.

interface Upstream {
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

async function upstream(name: string): Promise<Upstream> {
  const port = await freePort();
  let server: Server | null = null;
  const u: Upstream = {
    url: `http://127.0.0.1:${port}`,
    async start() {
      const s = createServer((req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ from: name, url: req.url }));
      });
      await new Promise<void>((ok) => s.listen(port, '127.0.0.1', ok));
      server = s;
    },
    async stop() {
      const s = server;
      server = null;
      if (!s) return;
      s.closeAllConnections();
      await new Promise((ok) => s.close(ok));
    },
  };
  await u.start();
  return u;
}

let gw: App;
let base = '';
let crm: Upstream[];
let documents: Upstream;
let auth: Record<string, string> = {};
const get = (path: string) => fetch(`${base}${path}`, { headers: auth });

async function waitFor(check: () => Promise<boolean>, what: string) {
  const until = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const ready = async () => {
  const r = await fetch(`${base}/health/ready`);
  return { status: r.status, body: (await r.json()) as { status: string; checks: Record<string, string>; report: Record<string, string> } };
};

beforeAll(async () => {
  crm = [await upstream('crm-1'), await upstream('crm-2')];
  documents = await upstream('documents');
  const keys = generateSigningKeys();
  const signer = await TokenSigner.fromPem(keys.privateKeyPem);
  const { token } = await signer.sign({
    sub: '00000000-0000-4000-8000-000000000001',
    sid: 's1',
    knd: 'admin',
    roles: ['admin'],
    name: 'A',
  });
  auth = { authorization: `Bearer ${token}` };
  gw = await buildGateway({
    logger: pino({ level: 'silent' }),
    verifier: await TokenVerifier.fromPem(keys.publicKeyPem),
    frontendDir: null,
    healthChecks: {},
    healthReport: { bus: async () => false },
    publicConfig: () => ({ demoMode: false, maintenance: false, practice: { name: 'P', phone: '0', email: 'p@example.invalid' } }),
    upstreams: { crm: crm.map((u) => u.url), documents: documents.url },
    upstreamOptions: { healthIntervalMs: 200, healthTimeoutMs: 5000 },
  });
  await gw.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(gw.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await gw?.close();
  await Promise.all([...(crm ?? []), documents].filter(Boolean).map((u) => u.stop()));
});

describe('the gateway with one service down', () => {
  it('ready with every upstream up; Kafka down (the bus) is reported, not a reason to be unready', async () => {
    await waitFor(async () => (await ready()).body.report?.['upstream:crm'] === 'ok', 'crm reported up');
    const r = await ready();
    expect(r.status).toBe(200);
    expect(r.body.report).toEqual({ bus: 'down', 'upstream:crm': 'ok', 'upstream:documents': 'ok' });
    expect((await get('/api/crm/clients')).status).toBe(200);
  });

  it('both crm replicas stopped: still ready (crm reported down), crm routes 503 in the error shape, documents routes work', async () => {
    await Promise.all(crm.map((u) => u.stop()));
    await waitFor(async () => (await ready()).body.report['upstream:crm'] === 'down', 'crm reported down');
    const r = await ready();
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('ok');
    expect((await fetch(`${base}/health/live`)).status).toBe(200);

    for (const method of ['GET', 'POST']) {
      const res = await fetch(`${base}/api/crm/clients`, {
        method,
        headers: method === 'POST' ? { ...auth, 'content-type': 'application/json' } : auth,
        body: method === 'POST' ? '{}' : undefined,
      });
      expect(res.status, method).toBe(503);
      expect(await res.json()).toEqual({ error: { code: 'UPSTREAM_UNAVAILABLE', message: MESSAGES.serviceUnavailable } });
    }
    const doc = await get('/api/documents/documents');
    expect(doc.status).toBe(200);
    expect(await doc.json()).toMatchObject({ from: 'documents' });
  });

  it('crm back: reported up again and its routes answer, without touching the gateway', async () => {
    await crm[1]!.start();
    await waitFor(async () => (await ready()).body.report['upstream:crm'] === 'ok', 'crm reported up again');
    const res = await get('/api/crm/clients');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ from: 'crm-2' });
  });
});
