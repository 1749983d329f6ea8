import { BullMqJobQueue, createApp, type App, type JobQueue, type Runtime } from '@countinghouse/kit';
import { createTestKit, waitFor, type TestKit } from '@countinghouse/kit/testing';
import { mediaPlugin, type OpenAiOptions } from '@countinghouse/media';
import type { ScriptRecord } from '@countinghouse/proto';
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answer, scriptOf, startFakeOpenAi, status } from '../../services/media/test/helpers.js';
import { requireEnv } from '../processes.js';

const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
const closers: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const c of closers.reverse()) await c().catch(() => {});
});

/** The media service alone (as its own process would run it) on the given job queue. */
async function startMedia(kit: TestKit, jobs: JobQueue, openai: OpenAiOptions | null = null): Promise<App> {
  const runtime: Runtime = { ...kit.runtime, jobs };
  const app = createApp({ logger });
  await app.register(async (scope) => scope.register(mediaPlugin, { runtime, openai }), { prefix: '/api/media' });
  await app.ready();
  closers.push(() => app.close());
  return app;
}

async function adminToken(kit: TestKit) {
  return (await kit.signer.sign({ sub: randomUUID(), sid: randomUUID(), knd: 'admin', roles: ['admin'], name: 'dist.admin' })).token;
}

function bullQueue(prefix: string) {
  const q = new BullMqJobQueue(requireEnv('TEST_REDIS_URL'), logger, prefix);
  closers.push(() => q.close());
  return q;
}

async function generateAndWait(app: App, token: string, body: object): Promise<ScriptRecord> {
  const res = await app.inject({ method: 'POST', url: '/api/media/scripts', headers: { authorization: `Bearer ${token}` }, payload: body });
  expect(res.statusCode, res.body).toBe(202);
  const id = res.json().id as string;
  return waitFor(
    async () => {
      const s = (
        await app.inject({ method: 'GET', url: `/api/media/scripts/${id}`, headers: { authorization: `Bearer ${token}` } })
      ).json();
      return s.status === 'completed' || s.status === 'failed' ? (s as ScriptRecord) : null;
    },
    `script ${id}`,
    30_000,
    50,
  );
}

describe('media.generate_script on BullMQ (real Redis)', () => {
  let kit: TestKit;
  let token: string;
  const prefix = `test-media-${Date.now()}`;
  beforeAll(async () => {
    kit = await createTestKit();
    closers.push(() => kit.close());
    token = await adminToken(kit);
  });

  it('runs the processor through a BullMQ worker: job state, progress and the stored result agree', async () => {
    const q = bullQueue(prefix);
    const app = await startMedia(kit, q);
    const done = await generateAndWait(app, token, { type: 'website_demo' });
    expect(done).toMatchObject({ status: 'completed', generator: 'template', progress: 100, attempts: 1 });
    expect(done.script!.total_seconds).toBeGreaterThanOrEqual(90);
    expect(done.script!.total_seconds).toBeLessThanOrEqual(120);
    // The script's row is completed inside the processor; BullMQ moves the job to completed once the
    // processor has returned, a moment later (read at once, CI once saw it still active).
    const job = await waitFor(
      async () => {
        const s = await q.status('media.generate_script', done.id);
        return s && s.state !== 'active' ? s : null;
      },
      'the job to leave active',
      10_000,
      20,
    );
    expect(job).toMatchObject({
      id: done.id,
      name: 'media.generate_script',
      state: 'completed',
      attemptsMade: 1,
      result: { status: 'completed' },
    });
    expect(job!.progress).toBeGreaterThanOrEqual(90);
    const { rows } = await kit.runtime.pool.query(`select type from media.outbox where envelope->'data'->>'scriptId' = $1`, [done.id]);
    expect(rows.map((r) => r.type)).toEqual(['media.script_generated']);
  });

  it('runs the OpenAI path in the worker: a 429, then a malformed answer regenerated with feedback', async () => {
    const fake = await startFakeOpenAi();
    closers.push(() => fake.close());
    fake.plan(status(429, { 'retry-after-ms': '100' }), answer('not json'), answer(scriptOf(75)));
    const q = bullQueue(`${prefix}-openai`);
    const app = await startMedia(kit, q, {
      apiKey: 'sk-local',
      baseUrl: fake.baseUrl,
      model: 'gpt-test',
      timeoutMs: 2000,
      retryBaseMs: 20,
    });
    const done = await generateAndWait(app, token, { type: 'company_overview' });
    expect(done).toMatchObject({ status: 'completed', generator: 'openai', model: 'gpt-test-mini' });
    expect(fake.requests).toHaveLength(3);
    expect(fake.requests[2]!.body.messages.at(-1)!.content).toContain('not valid JSON');
  });

  it('a provider failure fails the BullMQ job without retrying it, and the record says why', async () => {
    const fake = await startFakeOpenAi();
    closers.push(() => fake.close());
    fake.plan(status(401));
    const q = bullQueue(`${prefix}-fail`);
    const app = await startMedia(kit, q, { apiKey: 'sk-wrong', baseUrl: fake.baseUrl, model: 'gpt-test', retryBaseMs: 20 });
    const done = await generateAndWait(app, token, { type: 'company_overview' });
    expect(done.status).toBe('failed');
    expect(done.error).toContain('refused the API key');
    const job = await waitFor(async () => {
      const s = await q.status('media.generate_script', done.id);
      return s?.state === 'failed' ? s : null;
    }, 'failed job');
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toContain('refused the API key');
  });

  it('two replicas share one queue: every script is generated exactly once', async () => {
    const shared = `${prefix}-replicas`;
    const a = await startMedia(kit, bullQueue(shared));
    await startMedia(kit, bullQueue(shared));
    const results = await Promise.all(
      ['company_overview', 'website_demo', 'company_overview', 'website_demo', 'company_overview', 'website_demo'].map((type) =>
        generateAndWait(a, token, { type }),
      ),
    );
    for (const r of results) expect(r).toMatchObject({ status: 'completed', attempts: 1 });
    const ids = results.map((r) => r.id);
    const { rows } = await kit.runtime.pool.query(
      `select count(*)::int as n from media.outbox where envelope->'data'->>'scriptId' = any($1)`,
      [ids],
    );
    expect(rows[0].n).toBe(ids.length);
  });
});

describe('media.generate_script on the PostgreSQL queue', () => {
  it('runs the same processor, and picks up scripts left queued by a restart', async () => {
    const kit = await createTestKit();
    closers.push(() => kit.close());
    const token = await adminToken(kit);
    // A script row whose job was never queued (written before a crash): the plugin queues it at start.
    const { rows } = await kit.runtime.pool.query(
      `insert into media.generated_scripts (type, requested_by_kind, requested_by_id, requested_by_name) values ('company_overview', 'admin', $1, 'earlier') returning id`,
      [randomUUID()],
    );
    const leftOver = rows[0].id as string;
    expect(kit.runtime.jobs.kind).toBe('postgres');
    const app = await startMedia(kit, kit.runtime.jobs);
    const recovered = await waitFor(async () => {
      const s = (
        await app.inject({ method: 'GET', url: `/api/media/scripts/${leftOver}`, headers: { authorization: `Bearer ${token}` } })
      ).json();
      return s.status === 'completed' ? (s as ScriptRecord) : null;
    }, 'left-over script completed');
    expect(recovered.generator).toBe('template');
    const done = await generateAndWait(app, token, { type: 'custom', customPrompt: 'Payroll year-end in 45 seconds' });
    expect(done).toMatchObject({ status: 'completed', generator: 'template' });
    expect(await kit.runtime.jobs.status('media.generate_script', done.id)).toMatchObject({ state: 'completed', progress: 100 });
  });
});
