import { TOPICS, type EventEnvelope, type ScriptList, type ScriptRecord } from '@countinghouse/proto';
import { waitFor } from '@countinghouse/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, cookieHeader, login, makePerson, startTestGateway, type TestGateway } from '../../../gateway/test/helpers.js';
import { generate, getScript, waitDone } from './helpers.js';

let gw: TestGateway;
let admin: string;
const events: EventEnvelope[] = [];

beforeAll(async () => {
  gw = await startTestGateway();
  admin = (await login(gw.app)).json().session_token;
  await gw.kit.runtime.bus.subscribe({ group: 'test.media-events', topics: [TOPICS.media], handler: async (e) => void events.push(e) });
});
afterAll(async () => {
  await gw?.close();
});

describe('template generator (no AI provider configured)', () => {
  it('says so before anyone generates', async () => {
    const r = await gw.app.inject({ method: 'GET', url: '/api/media/generator', headers: bearer(admin) });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toEqual({ generator: 'template', model: null });
  });

  it.each([
    ['company_overview', 60, 90],
    ['website_demo', 90, 120],
  ] as const)('writes a %s script from the practice facts that fits %i-%i seconds', async (type, min, max) => {
    const res = await generate(gw, admin, { type, customPrompt: '' });
    expect(res.statusCode, res.body).toBe(202);
    const queued = res.json() as ScriptRecord;
    expect(queued).toMatchObject({ type, status: 'queued', progress: 0, script: null, prompt: null });
    expect(queued.requested_by).toMatchObject({ kind: 'admin', name: 'practice.admin' });

    const done = await waitDone(gw, admin, queued.id);
    expect(done.status).toBe('completed');
    expect(done).toMatchObject({ generator: 'template', model: null, progress: 100, error: null, attempts: 1 });
    const s = done.script!;
    expect(s.total_seconds).toBeGreaterThanOrEqual(min);
    expect(s.total_seconds).toBeLessThanOrEqual(max);
    expect(s.scenes[0]!.start_second).toBe(0);
    for (let i = 1; i < s.scenes.length; i++) expect(s.scenes[i]!.start_second).toBe(s.scenes[i - 1]!.end_second);
    expect(s.scenes.at(-1)!.end_second).toBe(s.total_seconds);
    const all = JSON.stringify(s);
    // the practice's own facts, from the public config and proto
    expect(all).toContain('Test Practice');
    expect(all).toContain('0100');
    expect(all).toContain('a@b.c');
    expect(all).toContain('£40');
    expect(done.text).toContain(s.title);
    expect(done.text).toContain('Scene 1 [0:00 - ');
    expect(done.text).toContain('built-in template generator');
    expect(done.started_at).not.toBeNull();
    expect(done.completed_at).not.toBeNull();
    expect(done.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('writes a custom script (type null means custom) around the description', async () => {
    const res = await generate(gw, admin, { type: null, customPrompt: '  A 30-second clip for new landlords about Making Tax Digital  ' });
    expect(res.statusCode, res.body).toBe(202);
    const done = await waitDone(gw, admin, res.json().id);
    expect(done).toMatchObject({
      type: 'custom',
      status: 'completed',
      prompt: 'A 30-second clip for new landlords about Making Tax Digital',
    });
    expect(done.script!.title).toContain('Making Tax Digital');
    expect(done.script!.total_seconds).toBeGreaterThanOrEqual(15);
    expect(done.script!.total_seconds).toBeLessThanOrEqual(300);
  });

  it('publishes media.script_generated through the outbox', async () => {
    const res = await generate(gw, admin, { type: 'company_overview' });
    const id = res.json().id as string;
    await waitDone(gw, admin, id);
    const e = await waitFor(
      () => events.find((x) => x.type === 'media.script_generated' && (x.data as { scriptId: string }).scriptId === id),
      'event',
    );
    expect(e.data).toMatchObject({
      scriptId: id,
      type: 'company_overview',
      generator: 'template',
      model: null,
      requestedBy: { kind: 'admin' },
    });
    expect(e.actor.kind).toBe('admin');
    const { rows } = await gw.kit.runtime.pool.query(`select published_at from media.outbox where envelope->'data'->>'scriptId' = $1`, [
      id,
    ]);
    expect(rows).toHaveLength(1);
  });

  it('lists earlier scripts newest first, paginated', async () => {
    const r1 = await gw.app.inject({ method: 'GET', url: '/api/media/scripts?page=1&page_size=2', headers: bearer(admin) });
    expect(r1.statusCode).toBe(200);
    const p1 = r1.json() as ScriptList;
    const { rows } = await gw.kit.runtime.pool.query('select id from media.generated_scripts order by created_at desc, id desc');
    expect(p1.total).toBe(rows.length);
    expect(p1.total).toBeGreaterThanOrEqual(4);
    expect(p1).toMatchObject({ page: 1, page_size: 2 });
    expect(p1.scripts.map((s) => s.id)).toEqual(rows.slice(0, 2).map((r) => r.id));
    const p2 = (
      await gw.app.inject({ method: 'GET', url: '/api/media/scripts?page=2&page_size=2', headers: bearer(admin) })
    ).json() as ScriptList;
    expect(p2.scripts.map((s) => s.id)).toEqual(rows.slice(2, 4).map((r) => r.id));
    const first = p1.scripts[0]!;
    expect(first.title).toBeTruthy();
    expect(first.total_seconds).toBeGreaterThan(0);
    expect(first).not.toHaveProperty('text');
  });

  it('answers 404 for an unknown script and 400 for a malformed id', async () => {
    expect(
      (await gw.app.inject({ method: 'GET', url: '/api/media/scripts/6f1c2c55-1d2b-4f0e-9a5e-000000000000', headers: bearer(admin) }))
        .statusCode,
    ).toBe(404);
    expect((await gw.app.inject({ method: 'GET', url: '/api/media/scripts/not-an-id', headers: bearer(admin) })).statusCode).toBe(400);
  });
});

describe('validation', () => {
  const countRows = async () => Number((await gw.kit.runtime.pool.query('select count(*) from media.generated_scripts')).rows[0].count);

  it.each([
    ['custom without a description', { type: 'custom' }, 'customPrompt'],
    ['custom with a blank description', { type: 'custom', customPrompt: '   \n ' }, 'customPrompt'],
    ['null type without a description', { type: null, customPrompt: null }, 'customPrompt'],
    ['an overlong description', { type: 'custom', customPrompt: 'x'.repeat(2001) }, 'customPrompt'],
    ['an unknown type', { type: 'tiktok_dance', customPrompt: 'x' }, 'type'],
    ['a non-string description', { type: 'custom', customPrompt: 42 }, 'customPrompt'],
    ['an unknown field', { type: 'company_overview', length: 600 }, ''],
  ])('refuses %s with 400 and writes nothing', async (_label, body, path) => {
    const before = await countRows();
    const res = await generate(gw, admin, body);
    expect(res.statusCode, res.body).toBe(400);
    const err = res.json().error;
    expect(err.code).toBe('VALIDATION_FAILED');
    if (path) expect(JSON.stringify(err.details)).toContain(path);
    expect(await countRows()).toBe(before);
  });

  it('accepts a description of exactly 2,000 characters', async () => {
    const res = await generate(gw, admin, { type: 'custom', customPrompt: 'y'.repeat(2000) });
    expect(res.statusCode, res.body).toBe(202);
    await waitDone(gw, admin, res.json().id);
  });
});

describe('access', () => {
  let scriptId: string;
  beforeAll(async () => {
    scriptId = (await generate(gw, admin, { type: 'website_demo' })).json().id;
    await waitDone(gw, admin, scriptId);
  });

  const calls = (id: () => string) => [
    { method: 'POST' as const, url: '/api/media/scripts', payload: { type: 'company_overview' } },
    { method: 'GET' as const, url: '/api/media/scripts' },
    {
      method: 'GET' as const,
      get url() {
        return `/api/media/scripts/${id()}`;
      },
    },
    { method: 'GET' as const, url: '/api/media/generator' },
  ];

  it('refuses anonymous callers (401)', async () => {
    for (const c of calls(() => scriptId)) {
      const r = await gw.app.inject({ method: c.method, url: c.url, payload: 'payload' in c ? c.payload : undefined });
      expect(r.statusCode, `${c.method} ${c.url}`).toBe(401);
    }
  });

  it.each([['client'], ['accountant'], ['staff']])('refuses a %s (403) and writes nothing', async (role) => {
    const person = await makePerson(gw, `${role}-media@example.co.uk`, [role]);
    const before = (await gw.kit.runtime.pool.query('select count(*) from media.generated_scripts')).rows[0].count;
    for (const c of calls(() => scriptId)) {
      const r = await gw.app.inject({
        method: c.method,
        url: c.url,
        headers: bearer(person.token),
        payload: 'payload' in c ? c.payload : undefined,
      });
      expect(r.statusCode, `${role} ${c.method} ${c.url}`).toBe(403);
      expect(r.json().error.code).toBe('FORBIDDEN');
    }
    expect((await gw.kit.runtime.pool.query('select count(*) from media.generated_scripts')).rows[0].count).toBe(before);
  });

  it.each([['manager'], ['admin']])('lets a person with role %s generate and read', async (role) => {
    const person = await makePerson(gw, `${role}-media@example.co.uk`, [role]);
    const res = await generate(gw, person.token, { type: 'company_overview' });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().requested_by).toMatchObject({ kind: 'user', id: person.id });
    const done = await waitDone(gw, person.token, res.json().id);
    expect(done.status).toBe('completed');
    expect((await gw.app.inject({ method: 'GET', url: '/api/media/scripts', headers: bearer(person.token) })).statusCode).toBe(200);
    expect((await getScript(gw, person.token, scriptId)).id).toBe(scriptId);
  });

  it('lets the admin panel session (cookies, as the browser sends them) generate and read', async () => {
    const li = await login(gw.app);
    const cookie = cookieHeader(li.headers['set-cookie']);
    const headers = { cookie, 'sec-fetch-site': 'same-origin' };
    const res = await gw.app.inject({ method: 'POST', url: '/api/media/scripts', headers, payload: { type: 'website_demo' } });
    expect(res.statusCode, res.body).toBe(202);
    const list = await gw.app.inject({ method: 'GET', url: '/api/media/scripts', headers });
    expect(list.statusCode).toBe(200);
    expect((list.json() as ScriptList).scripts[0]!.id).toBe(res.json().id);
    const one = await gw.app.inject({ method: 'GET', url: `/api/media/scripts/${res.json().id}`, headers });
    expect(one.statusCode).toBe(200);
  });
});
