import { ConfigError } from '@countinghouse/kit';
import { startServiceForTest, type ServiceTestApp } from '@countinghouse/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { service } from '../src/service.js';

// The settings service booted alone from its descriptor (kit's startServiceForTest, issue 27 item 5):
// its own settings and plugin only, no gateway and no other service; people sign in by the kit's signer.
let s: ServiceTestApp;

beforeAll(async () => {
  s = await startServiceForTest(service, { env: { PRACTICE_NAME: 'Alone & Co', PRACTICE_PHONE: '020 7946 0000' } });
});
afterAll(async () => {
  await s?.close();
});

describe('a service booted from its descriptor', () => {
  it('takes its settings from the environment, through its own schema', async () => {
    const pub = await s.app.inject({ method: 'GET', url: '/api/settings/public' });
    expect(pub.statusCode).toBe(200);
    expect(pub.json()).toMatchObject({ name: 'Alone & Co', phone: '020 7946 0000', email: 'hello@countinghouse.co.uk', version: 1 });
  });

  it("checks who is asking, with the permissions table's roles", async () => {
    const patch = async (roles: Parameters<ServiceTestApp['tokenFor']>[0]) =>
      s.app.inject({
        method: 'PATCH',
        url: '/api/settings',
        headers: { authorization: `Bearer ${await s.tokenFor(roles)}` },
        payload: { name: 'Renamed & Co' },
      });
    expect((await patch(['client'])).statusCode).toBe(403);
    expect((await patch(['staff'])).statusCode).toBe(403);
    const ok = await patch(['admin']);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().settings).toMatchObject({ name: 'Renamed & Co', version: 2 });
    expect((await s.app.inject({ method: 'GET', url: '/api/settings' })).statusCode).toBe(401);
  });

  it('refuses settings its schema refuses, as the process would', async () => {
    await expect(startServiceForTest(service, { env: { PRACTICE_NAME: 'x'.repeat(101) } })).rejects.toThrow(ConfigError);
  });
});
