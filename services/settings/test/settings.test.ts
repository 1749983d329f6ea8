import { waitFor } from '@countinghouse/kit/testing';
import { SETTINGS_MESSAGES, TOPICS, type EventEnvelope, type EventData } from '@countinghouse/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, bearer, login, makePerson, startTestGateway, type TestGateway } from '../../../gateway/test/helpers.js';

// The settings service through the all-in-one gateway, on a real PostgreSQL.
let gw: TestGateway;
let adminToken: string;
let adminId: string;
const tokens: Record<string, string | null> = {};
const seen: EventEnvelope[] = [];

beforeAll(async () => {
  gw = await startTestGateway();
  const li = await login(gw.app);
  adminToken = li.json().session_token;
  adminId = li.json().user.id;
  tokens.anonymous = null;
  tokens.client = (await makePerson(gw, 's.client@x.co.uk', ['client'])).token;
  tokens.accountant = (await makePerson(gw, 's.acc@x.co.uk', ['accountant'])).token;
  tokens.staff = (await makePerson(gw, 's.staff@x.co.uk', ['staff'])).token;
  tokens.manager = (await makePerson(gw, 's.manager@x.co.uk', ['manager'])).token;
  tokens.admin = (await makePerson(gw, 's.admin@x.co.uk', ['admin'])).token;
  tokens.adminSession = adminToken;
  await gw.kit.runtime.bus.subscribe({
    group: 'test.settings',
    topics: [TOPICS.settings],
    handler: async (e) => void seen.push(e),
  });
});
afterAll(async () => {
  await gw?.close();
});

const q = (sql: string, params: unknown[] = []) => gw.kit.runtime.pool.query(sql, params);
const counts = async () => {
  const { rows } = await q(`select
      (select count(*)::int from settings.setting_changes) as changes,
      (select count(*)::int from settings.outbox) as outbox,
      (select version from settings.practice_settings) as version`);
  return rows[0] as { changes: number; outbox: number; version: number };
};
const patch = (payload: object, token: string | null = adminToken) =>
  gw.app.inject({ method: 'PATCH', url: '/api/settings', headers: token ? bearer(token) : {}, payload });

describe('settings API', () => {
  it('starts from the launcher defaults and serves them publicly without a token', async () => {
    const pub = await gw.app.inject({ method: 'GET', url: '/api/settings/public' });
    expect(pub.statusCode).toBe(200);
    expect(pub.json()).toEqual({ name: 'Test Practice', phone: '0100', email: 'a@b.c', maintenance: false, version: 1 });
    const admin = await gw.app.inject({ method: 'GET', url: '/api/settings', headers: bearer(adminToken) });
    expect(admin.statusCode).toBe(200);
    expect(admin.json()).toMatchObject({ name: 'Test Practice', updated_by: null, version: 1 });
    const cfg = await gw.app.inject({ method: 'GET', url: '/api/public/config' });
    expect(cfg.json()).toMatchObject({ maintenance: false, practice: { name: 'Test Practice', phone: '0100', email: 'a@b.c' } });
  });

  it.each([
    [{ name: '' }, 'name', SETTINGS_MESSAGES.nameRequired],
    [{ name: '   ' }, 'name', SETTINGS_MESSAGES.nameRequired],
    [{ name: 'x'.repeat(101) }, 'name', SETTINGS_MESSAGES.nameTooLong],
    [{ phone: '12345' }, 'phone', SETTINGS_MESSAGES.phoneInvalid],
    [{ phone: '020-7946-0321' }, 'phone', SETTINGS_MESSAGES.phoneInvalid],
    [{ phone: '+44 (0) 20 7946 0321 ext 5' }, 'phone', SETTINGS_MESSAGES.phoneInvalid],
    [{ phone: '+( ) ( ) ( ) 1' }, 'phone', SETTINGS_MESSAGES.phoneDigits],
    [{ email: 'not-an-email' }, 'email', SETTINGS_MESSAGES.emailInvalid],
    [{ email: 'a@b' }, 'email', SETTINGS_MESSAGES.emailInvalid],
    [{ email: 'a b@c.co.uk' }, 'email', SETTINGS_MESSAGES.emailInvalid],
  ])('refuses %j with a clear message and writes nothing', async (body, path, message) => {
    const before = await counts();
    const r = await patch(body);
    expect(r.statusCode).toBe(400);
    expect(r.json().error).toMatchObject({ code: 'VALIDATION_FAILED', message, details: [{ path, message }] });
    expect(await counts()).toEqual(before);
  });

  it('refuses an empty body, unknown fields and wrong types, writing nothing', async () => {
    const before = await counts();
    const empty = await patch({});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toBe(SETTINGS_MESSAGES.nothingToChange);
    expect((await patch({ colour: 'blue' })).statusCode).toBe(400);
    expect((await patch({ maintenance: 'yes' })).statusCode).toBe(400);
    expect(await counts()).toEqual(before);
  });

  it('records one audit row per changed field, in the same transaction as the change and its event', async () => {
    const before = await counts();
    const r = await patch({ name: '  Ledger & Co  ', phone: '+44 (0)20 7946 0999', email: 'hello@ledger.co.uk', maintenance: false });
    expect(r.statusCode).toBe(200);
    const body = r.json();
    expect(body.changed).toEqual(['name', 'phone', 'email']);
    expect(body.message).toBe(SETTINGS_MESSAGES.saved);
    expect(body.settings).toMatchObject({
      name: 'Ledger & Co',
      phone: '+44 (0)20 7946 0999',
      email: 'hello@ledger.co.uk',
      maintenance: false,
      version: before.version + 1,
      updated_by: ADMIN.username,
    });
    const after = await counts();
    expect(after).toEqual({ changes: before.changes + 3, outbox: before.outbox + 1, version: before.version + 1 });
    const { rows } = await q(
      `select field, old_value, new_value, actor_id, actor_name, actor_kind from settings.setting_changes order by id`,
    );
    expect(rows).toEqual([
      {
        field: 'name',
        old_value: 'Test Practice',
        new_value: 'Ledger & Co',
        actor_id: adminId,
        actor_name: ADMIN.username,
        actor_kind: 'admin',
      },
      {
        field: 'phone',
        old_value: '0100',
        new_value: '+44 (0)20 7946 0999',
        actor_id: adminId,
        actor_name: ADMIN.username,
        actor_kind: 'admin',
      },
      {
        field: 'email',
        old_value: 'a@b.c',
        new_value: 'hello@ledger.co.uk',
        actor_id: adminId,
        actor_name: ADMIN.username,
        actor_kind: 'admin',
      },
    ]);
    // The outbox row is the event: published by the relay with the full public settings.
    const event = await waitFor(
      () => seen.find((e) => e.type === 'settings.changed' && (e.data as { version: number }).version === after.version),
      'settings.changed',
    );
    expect(event.actor).toEqual({ kind: 'admin', id: adminId });
    expect(event.data as EventData<'settings.changed'>).toEqual({
      name: 'Ledger & Co',
      phone: '+44 (0)20 7946 0999',
      email: 'hello@ledger.co.uk',
      maintenance: false,
      version: after.version,
      changedFields: ['name', 'phone', 'email'],
    });
    const { rows: ob } = await q(`select type, published_at from settings.outbox order by id desc limit 1`);
    expect(ob[0].type).toBe('settings.changed');
    await waitFor(
      async () => (await q(`select published_at from settings.outbox order by id desc limit 1`)).rows[0].published_at,
      'outbox published',
    );
  });

  it('identity takes the current practice name for the invitations it sends (all-in-one)', async () => {
    const inv = await gw.app.inject({
      method: 'POST',
      url: '/api/identity/invitations',
      headers: bearer(adminToken),
      payload: { email: 'new.starter@x.co.uk', role: 'staff' },
    });
    expect(inv.statusCode).toBe(201);
    const mail = await waitFor(
      async () => (await q(`select subject from identity.outgoing_mail where "to" = 'new.starter@x.co.uk'`)).rows[0],
      'the invitation e-mail',
    );
    expect(mail.subject).toContain('Ledger & Co');
  });

  it('a change to the same values writes nothing and emits nothing', async () => {
    const before = await counts();
    const r = await patch({ name: 'Ledger & Co', phone: '+44 (0)20 7946 0999', maintenance: false });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({ changed: [], message: SETTINGS_MESSAGES.unchanged });
    expect(await counts()).toEqual(before);
  });

  it('the maintenance switch is audited as on/off, announced, and flips the public config', async () => {
    const on = await patch({ maintenance: true });
    expect(on.statusCode).toBe(200);
    expect(on.json()).toMatchObject({ changed: ['maintenance'], message: SETTINGS_MESSAGES.maintenanceOn });
    const { rows } = await q(`select field, old_value, new_value from settings.setting_changes order by id desc limit 1`);
    expect(rows[0]).toEqual({ field: 'maintenance', old_value: 'off', new_value: 'on' });
    await waitFor(
      async () => (await gw.app.inject({ method: 'GET', url: '/api/public/config' })).json().maintenance === true,
      'maintenance on',
    );
    const off = await patch({ maintenance: false });
    expect(off.json().message).toBe(SETTINGS_MESSAGES.maintenanceOff);
    await waitFor(
      async () => (await gw.app.inject({ method: 'GET', url: '/api/public/config' })).json().maintenance === false,
      'maintenance off',
    );
  });

  it('lists the history newest first, a page at a time', async () => {
    const all = await gw.app.inject({ method: 'GET', url: '/api/settings/changes', headers: bearer(adminToken) });
    expect(all.statusCode).toBe(200);
    const body = all.json();
    expect(body.total).toBe(5);
    expect(body.changes.map((c: { field: string; new_value: string }) => `${c.field}=${c.new_value}`)).toEqual([
      'maintenance=off',
      'maintenance=on',
      'email=hello@ledger.co.uk',
      'phone=+44 (0)20 7946 0999',
      'name=Ledger & Co',
    ]);
    const page2 = await gw.app.inject({ method: 'GET', url: '/api/settings/changes?page=2&page_size=2', headers: bearer(adminToken) });
    expect(page2.json()).toMatchObject({ total: 5, page: 2, page_size: 2 });
    expect(page2.json().changes.map((c: { field: string }) => c.field)).toEqual(['email', 'phone']);
    const bad = await gw.app.inject({ method: 'GET', url: '/api/settings/changes?page_size=1000', headers: bearer(adminToken) });
    expect(bad.statusCode).toBe(400);
  });

  it('a person holding the admin role may change them too, and is named in the history', async () => {
    const r = await patch({ phone: '0161 496 0000' }, tokens.admin);
    expect(r.statusCode).toBe(200);
    const { rows } = await q(`select actor_kind, actor_name from settings.setting_changes order by id desc limit 1`);
    expect(rows[0]).toEqual({ actor_kind: 'user', actor_name: expect.stringContaining('s.admin') });
  });
});

describe('only admins', () => {
  const callers = ['anonymous', 'client', 'accountant', 'staff', 'manager', 'admin', 'adminSession'] as const;
  const allowed = new Set(['admin', 'adminSession']);
  const endpoints = [
    { name: 'GET /api/settings', method: 'GET' as const, url: '/api/settings' },
    { name: 'PATCH /api/settings', method: 'PATCH' as const, url: '/api/settings', payload: { maintenance: false } },
    { name: 'GET /api/settings/changes', method: 'GET' as const, url: '/api/settings/changes' },
  ];
  for (const ep of endpoints) {
    it.each(callers)(`${ep.name} as %s`, async (caller) => {
      const before = await counts();
      const token = tokens[caller];
      const r = await gw.app.inject({ method: ep.method, url: ep.url, headers: token ? bearer(token) : {}, payload: ep.payload });
      if (allowed.has(caller)) expect(r.statusCode).toBe(200);
      else {
        expect(r.statusCode).toBe(caller === 'anonymous' ? 401 : 403);
        expect(r.json().error.code).toBe(caller === 'anonymous' ? 'UNAUTHENTICATED' : 'FORBIDDEN');
        expect(await counts()).toEqual(before);
      }
    });
  }

  it('the public endpoint needs no token but shows nothing about who changed what', async () => {
    const r = await gw.app.inject({ method: 'GET', url: '/api/settings/public' });
    expect(r.statusCode).toBe(200);
    expect(Object.keys(r.json()).sort()).toEqual(['email', 'maintenance', 'name', 'phone', 'version']);
  });
});
