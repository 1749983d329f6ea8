import { makeEnvelope } from '@countinghouse/kit';
import { waitFor } from '@countinghouse/kit/testing';
import { TOPICS, type EventData } from '@countinghouse/proto';
import { createServer, type Server } from 'node:http';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LiveSettings } from '../src/live-settings.js';
import { startTestGateway, type TestGateway } from './helpers.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway();
});
afterAll(async () => {
  await gw?.close();
});

const config = async () => (await gw.app.inject({ method: 'GET', url: '/api/public/config' })).json();
const announce = (data: EventData<'settings.changed'>) =>
  gw.kit.runtime.bus.publish(TOPICS.settings, [
    { key: 'practice', envelope: makeEnvelope('settings.changed', data, { kind: 'system', id: null }) },
  ]);

describe('the gateway keeps the practice settings live', () => {
  it('a settings.changed event flips /api/public/config; an older or malformed one changes nothing', async () => {
    expect(await config()).toMatchObject({ maintenance: false, practice: { name: 'Test Practice', phone: '0100' } });

    await announce({
      name: 'Event Practice',
      phone: '0161 496 0000',
      email: 'e@x.co.uk',
      maintenance: true,
      version: 7,
      changedFields: ['maintenance'],
    });
    expect(await config()).toEqual({
      demoMode: true,
      maintenance: true,
      practice: { name: 'Event Practice', phone: '0161 496 0000', email: 'e@x.co.uk' },
    });

    // A replayed or late event (version 6 after 7) does not put the old state back.
    await announce({
      name: 'Old',
      phone: '0100 000 000',
      email: 'o@x.co.uk',
      maintenance: false,
      version: 6,
      changedFields: ['maintenance'],
    });
    expect((await config()).maintenance).toBe(true);
    const junk = makeEnvelope('settings.changed', { version: 99 } as never, { kind: 'system', id: null });
    await gw.kit.runtime.bus.publish(TOPICS.settings, [{ key: 'practice', envelope: junk }]);
    expect((await config()).practice.name).toBe('Event Practice');

    await announce({
      name: 'Event Practice',
      phone: '0161 496 0000',
      email: 'e@x.co.uk',
      maintenance: false,
      version: 8,
      changedFields: ['maintenance'],
    });
    expect((await config()).maintenance).toBe(false);
  });
});

describe('LiveSettings.loadFrom (distributed start)', () => {
  let server: Server;
  let calls = 0;
  let baseUrl = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      calls++;
      if (req.url !== '/api/settings/public' || calls < 3) {
        res.writeHead(503).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ name: 'Loaded', phone: '020 7946 0000', email: 'l@x.co.uk', maintenance: true, version: 3 }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const addr = server.address();
    baseUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('serves the defaults until the settings service answers, retrying until it does', async () => {
    const live = new LiveSettings({ name: 'Default', phone: '0100', email: 'd@x.co.uk' });
    expect(live.get()).toMatchObject({ name: 'Default', maintenance: false });
    expect(live.isLoaded()).toBe(false);
    const loading = live.loadFrom(baseUrl, pino({ level: 'silent' }));
    await waitFor(() => live.isLoaded(), 'settings loaded', 15_000);
    await loading;
    expect(calls).toBe(3);
    expect(live.get()).toEqual({ name: 'Loaded', phone: '020 7946 0000', email: 'l@x.co.uk', maintenance: true, version: 3 });
  }, 20_000);
});
