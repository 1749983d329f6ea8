import {
  addHealthRoutes,
  createApp,
  GATEWAY_SIGNATURE_HEADER,
  GatewaySignatureVerifier,
  GatewaySigner,
  generateGatewayKeys,
  generateSigningKeys,
  requireGatewaySignature,
  TokenSigner,
  TokenVerifier,
  type App,
} from '@countinghouse/kit';
import { EDGE_MESSAGES } from '@countinghouse/proto';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGateway } from '../src/gateway.js';

// Issue 32, item 3: in distributed mode a service answers only requests the gateway signed (an Ed25519
// signature over method, path and time, with a key only the gateway holds), its health routes aside. A
// caller who reaches a service's port directly gets 401 and so no longer skips the gateway's sign-in limit
// and cross-site check. (The real processes, launched as `npm run start:distributed` does: tests/distributed/product.test.ts.)

const keys = generateGatewayKeys();
let service: App;
let gateway: App;
let serviceUrl = '';
let gatewayUrl = '';
const seenSignatures: string[] = [];
let auth: Record<string, string> = {};

const listen = async (app: App) => {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
};

beforeAll(async () => {
  const logger = pino({ level: 'silent' });
  // a service as startService builds it: health routes, the signature check, routes under /api/crm
  service = createApp({ logger });
  addHealthRoutes(service, {});
  requireGatewaySignature(service, new GatewaySignatureVerifier(keys.publicKeyPem), ['/api/crm/public']);
  service.get('/api/crm/stats', async (request) => {
    seenSignatures.push(String(request.headers[GATEWAY_SIGNATURE_HEADER]));
    return { ok: true };
  });
  service.post('/api/crm/tasks', async () => ({ created: true }));
  service.get('/api/crm/public', async () => ({ open: true }));
  service.post('/api/crm/public', async () => ({ open: true }));
  serviceUrl = await listen(service);

  const jwt = generateSigningKeys();
  const token = await (
    await TokenSigner.fromPem(jwt.privateKeyPem)
  ).sign({ sub: '00000000-0000-4000-8000-000000000001', sid: 's1', knd: 'admin', roles: ['admin'], name: 'A' });
  auth = { authorization: `Bearer ${token.token}` };
  gateway = await buildGateway({
    logger,
    verifier: await TokenVerifier.fromPem(jwt.publicKeyPem),
    frontendDir: null,
    healthChecks: {},
    publicConfig: () => ({ demoMode: false, maintenance: false, practice: { name: 'P', phone: '0', email: 'p@example.invalid' } }),
    upstreams: { crm: serviceUrl },
    upstreamOptions: { signer: new GatewaySigner(keys.privateKeyPem), healthIntervalMs: 0 },
  });
  gatewayUrl = await listen(gateway);
});
afterAll(async () => {
  await gateway?.close();
  await service?.close();
});

async function expectRefused(res: Response) {
  expect(res.status).toBe(401);
  expect(await res.json()).toEqual({ error: { code: 'GATEWAY_SIGNATURE_REQUIRED', message: EDGE_MESSAGES.gatewayOnly } });
}

describe('the gateway as the only door', () => {
  it('a request straight to the service without a signature is refused 401 (reads and writes)', async () => {
    await expectRefused(await fetch(`${serviceUrl}/api/crm/stats`));
    await expectRefused(
      await fetch(`${serviceUrl}/api/crm/tasks`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
    );
    // an unknown path too: nothing about the service's routes is learnt without the signature
    await expectRefused(await fetch(`${serviceUrl}/api/crm/nothing-here`));
  });

  it('the same request through the gateway is signed and answered', async () => {
    const res = await fetch(`${gatewayUrl}/api/crm/stats`, { headers: auth });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(seenSignatures.at(-1)).toMatch(/^v1\.\d+\./);
  });

  it('health routes answer without a signature', async () => {
    expect((await fetch(`${serviceUrl}/health/live`)).status).toBe(200);
    expect((await fetch(`${serviceUrl}/health/ready`)).status).toBe(200);
  });

  it('a signature seen once is refused the second time (replay), and is good for its own method and path only', async () => {
    await fetch(`${gatewayUrl}/api/crm/stats`, { headers: auth });
    const captured = seenSignatures.at(-1)!;
    await expectRefused(await fetch(`${serviceUrl}/api/crm/stats`, { headers: { [GATEWAY_SIGNATURE_HEADER]: captured } }));
    const fresh = new GatewaySigner(keys.privateKeyPem).sign('GET', '/api/crm/stats');
    await expectRefused(await fetch(`${serviceUrl}/api/crm/stats?page=2`, { headers: { [GATEWAY_SIGNATURE_HEADER]: fresh } }));
    await expectRefused(await fetch(`${serviceUrl}/api/crm/tasks`, { method: 'POST', headers: { [GATEWAY_SIGNATURE_HEADER]: fresh } }));
    // (unused until now: the right key, method and path pass)
    expect((await fetch(`${serviceUrl}/api/crm/stats`, { headers: { [GATEWAY_SIGNATURE_HEADER]: fresh } })).status).toBe(200);
  });

  it('a signature by another key, an old one, or a malformed one is refused', async () => {
    const other = new GatewaySigner(generateGatewayKeys().privateKeyPem).sign('GET', '/api/crm/stats');
    await expectRefused(await fetch(`${serviceUrl}/api/crm/stats`, { headers: { [GATEWAY_SIGNATURE_HEADER]: other } }));
    const old = new GatewaySigner(keys.privateKeyPem).sign('GET', '/api/crm/stats', Date.now() - 60_000);
    await expectRefused(await fetch(`${serviceUrl}/api/crm/stats`, { headers: { [GATEWAY_SIGNATURE_HEADER]: old } }));
    const future = new GatewaySigner(keys.privateKeyPem).sign('GET', '/api/crm/stats', Date.now() + 60_000);
    await expectRefused(await fetch(`${serviceUrl}/api/crm/stats`, { headers: { [GATEWAY_SIGNATURE_HEADER]: future } }));
    for (const bad of ['v1', 'v1.1.2.3', 'Bearer x', `${other}x`])
      await expectRefused(await fetch(`${serviceUrl}/api/crm/stats`, { headers: { [GATEWAY_SIGNATURE_HEADER]: bad } }));
  });

  it('a path named open answers GET without a signature, but not a write to it', async () => {
    expect((await fetch(`${serviceUrl}/api/crm/public`)).status).toBe(200);
    await expectRefused(await fetch(`${serviceUrl}/api/crm/public`, { method: 'POST' }));
  });

  it("a caller's own signature header sent to the gateway is replaced by the gateway's", async () => {
    const before = seenSignatures.length;
    const res = await fetch(`${gatewayUrl}/api/crm/stats`, { headers: { ...auth, [GATEWAY_SIGNATURE_HEADER]: 'v1.0.forged' } });
    expect(res.status).toBe(200);
    expect(seenSignatures.length).toBe(before + 1);
    expect(seenSignatures.at(-1)).not.toBe('v1.0.forged');
  });

  it('the signer takes only a private key', () => {
    expect(() => new GatewaySigner(keys.publicKeyPem)).toThrow();
  });
});
