import { TOPICS, type EventEnvelope } from '@countinghouse/proto';
import { waitFor } from '@countinghouse/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, type TestGateway } from '../../../gateway/test/helpers.js';
import { answer, generate, getScript, raw, scriptOf, slow, startFakeOpenAi, startMediaGateway, status, waitDone } from './helpers.js';

let fake: Awaited<ReturnType<typeof startFakeOpenAi>>;
let gw: TestGateway;
let admin: string;
const events: EventEnvelope[] = [];
const TIMEOUT_MS = 400;

beforeAll(async () => {
  fake = await startFakeOpenAi();
  gw = await startMediaGateway({
    apiKey: 'sk-test-local',
    baseUrl: fake.baseUrl,
    model: 'gpt-test-mini',
    timeoutMs: TIMEOUT_MS,
    maxAttempts: 3,
    retryBaseMs: 20,
    maxRetryAfterMs: 5000,
  });
  admin = (await login(gw.app)).json().session_token;
  await gw.kit.runtime.bus.subscribe({ group: 'test.media-events', topics: [TOPICS.media], handler: async (e) => void events.push(e) });
});
afterAll(async () => {
  await gw?.close();
  await fake?.close();
});

async function run(body: object) {
  const res = await generate(gw, admin, body);
  expect(res.statusCode, res.body).toBe(202);
  return waitDone(gw, admin, res.json().id, 18_000);
}

describe('OpenAI path against a local Chat Completions server', () => {
  it('reports the configured provider', async () => {
    const r = await gw.app.inject({ method: 'GET', url: '/api/media/generator', headers: bearer(admin) });
    expect(r.json()).toEqual({ generator: 'openai', model: 'gpt-test-mini' });
  });

  it('sends a system prompt built from the practice facts, asks for JSON, and stores the validated script', async () => {
    fake.plan(answer(scriptOf(75, 'Test Practice in 75 seconds'), { model: 'gpt-test-mini-2026-01-01' }));
    const done = await run({ type: 'company_overview' });
    expect(done.status, done.error ?? '').toBe('completed');
    expect(done).toMatchObject({ generator: 'openai', model: 'gpt-test-mini-2026-01-01', progress: 100, error: null });
    expect(done.script!.total_seconds).toBe(75);
    expect(done.script!.scenes).toHaveLength(5);
    expect(done.text).toContain('Test Practice in 75 seconds');
    expect(done.text).toContain('Written with an AI model');

    expect(fake.requests).toHaveLength(1);
    const req = fake.requests[0]!;
    expect(req.headers.authorization).toBe('Bearer sk-test-local');
    expect(req.body.model).toBe('gpt-test-mini');
    expect(req.body.response_format).toEqual({ type: 'json_object' });
    const system = req.body.messages[0]!;
    expect(system.role).toBe('system');
    for (const fact of [
      'Test Practice',
      '0100',
      'a@b.c',
      'sole traders, partnerships, limited companies',
      'Sole Trader Package £40 a month',
      'Enterprise £300 a month',
      'VAT Returns',
      'between 60 and 90 seconds',
      '"scenes"',
    ]) {
      expect(system.content).toContain(fact);
    }
    expect(req.body.messages[1]).toMatchObject({ role: 'user' });
    expect(req.body.messages[1]!.content).toContain('Company Overview');

    const e = await waitFor(
      () => events.find((x) => x.type === 'media.script_generated' && (x.data as { scriptId: string }).scriptId === done.id),
      'event',
    );
    expect(e.data).toMatchObject({ generator: 'openai', model: 'gpt-test-mini-2026-01-01', totalSeconds: 75 });
  });

  it('passes the custom description to the provider and checks the custom range (15-300 s)', async () => {
    fake.plan(answer(scriptOf(30)));
    const done = await run({ type: null, customPrompt: 'A 30-second reel for landlords about Making Tax Digital' });
    expect(done.status, done.error ?? '').toBe('completed');
    const user = fake.requests[0]!.body.messages[1]!.content;
    expect(user).toContain('Making Tax Digital');
    expect(fake.requests[0]!.body.messages[0]!.content).toContain('between 15 and 300 seconds');
  });

  it('retries a slow answer (timeout) and succeeds', async () => {
    fake.plan(slow(TIMEOUT_MS * 4, answer(scriptOf(75))), answer(scriptOf(105)), answer(scriptOf(105)));
    const done = await run({ type: 'website_demo' });
    expect(done.status, done.error ?? '').toBe('completed');
    expect(done.script!.total_seconds).toBe(105);
    expect(fake.requests).toHaveLength(2);
  });

  it('fails clearly when the provider never answers in time', async () => {
    fake.plan(slow(TIMEOUT_MS * 4, answer(scriptOf(75))));
    const done = await run({ type: 'company_overview' });
    expect(done.status).toBe('failed');
    expect(done.error).toBe('The AI provider did not answer within 0.4 seconds, 3 times in a row. Please try again later.');
    expect(done.script).toBeNull();
    expect(fake.requests).toHaveLength(3);
    const e = await waitFor(
      () => events.find((x) => x.type === 'media.script_failed' && (x.data as { scriptId: string }).scriptId === done.id),
      'failed event',
    );
    expect((e.data as { error: string }).error).toBe(done.error);
  });

  it('waits as long as a 429 Retry-After asks, then succeeds; progress shows meanwhile', async () => {
    fake.plan(status(429, { 'retry-after': '1' }, 'Rate limit reached'), answer(scriptOf(80)));
    const res = await generate(gw, admin, { type: 'company_overview' });
    const id = res.json().id as string;
    const during = await waitFor(async () => {
      const s = await getScript(gw, admin, id);
      return s.status === 'running' && fake.requests.length === 1 ? s : null;
    }, 'running while waiting');
    expect(during.progress).toBeGreaterThan(0);
    expect(during.progress).toBeLessThan(100);
    const done = await waitDone(gw, admin, id);
    expect(done.status, done.error ?? '').toBe('completed');
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]!.at - fake.requests[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('fails at once, saying how long, when Retry-After is longer than we hold a job', async () => {
    fake.plan(status(429, { 'retry-after': '3600' }, 'Rate limit reached'));
    const done = await run({ type: 'company_overview' });
    expect(done.status).toBe('failed');
    expect(done.error).toBe('The AI provider is rate limiting requests and asked us to wait 3600 seconds. Please try again later.');
    expect(fake.requests).toHaveLength(1);
  });

  it('retries 5xx with backoff and succeeds', async () => {
    fake.plan(status(500), status(503), answer(scriptOf(70)));
    const done = await run({ type: 'company_overview' });
    expect(done.status, done.error ?? '').toBe('completed');
    expect(fake.requests).toHaveLength(3);
  });

  it('fails clearly after 5xx on every try', async () => {
    fake.plan(status(502));
    const done = await run({ type: 'company_overview' });
    expect(done.error).toBe('The AI provider answered with an error (HTTP 502), 3 times in a row. Please try again later.');
    expect(fake.requests).toHaveLength(3);
  });

  it('does not retry a refused API key', async () => {
    fake.plan(status(401, {}, 'Incorrect API key provided'));
    const done = await run({ type: 'company_overview' });
    expect(done.error).toBe('The AI provider refused the API key (HTTP 401). Check OPENAI_API_KEY.');
    expect(fake.requests).toHaveLength(1);
  });

  it('regenerates once with feedback when the answer is not JSON', async () => {
    fake.plan(answer('Sure! Here is your script: Scene 1...'), answer(scriptOf(75)));
    const done = await run({ type: 'company_overview' });
    expect(done.status, done.error ?? '').toBe('completed');
    expect(fake.requests).toHaveLength(2);
    const second = fake.requests[1]!.body.messages;
    expect(second).toHaveLength(4);
    expect(second[2]).toEqual({ role: 'assistant', content: 'Sure! Here is your script: Scene 1...' });
    expect(second[3]!.role).toBe('user');
    expect(second[3]!.content).toContain('the answer was not valid JSON');
  });

  it('regenerates once with feedback when the JSON has the wrong shape', async () => {
    fake.plan(answer({ title: 'No scenes', total_seconds: 75, sections: [] }), answer(scriptOf(75)));
    const done = await run({ type: 'company_overview' });
    expect(done.status, done.error ?? '').toBe('completed');
    expect(fake.requests[1]!.body.messages[3]!.content).toContain('the JSON did not have the required shape (scenes');
  });

  it('regenerates when a 200 reply is not a chat completion at all', async () => {
    fake.plan(raw('<html><body>Bad gateway</body></html>', 'text/html'), answer(scriptOf(75)));
    const done = await run({ type: 'company_overview' });
    expect(done.status, done.error ?? '').toBe('completed');
    expect(fake.requests).toHaveLength(2);
  });

  it('regenerates a script that does not fit the length, telling the provider why', async () => {
    fake.plan(answer(scriptOf(45)), answer(scriptOf(100)));
    const done = await run({ type: 'website_demo' });
    expect(done.status, done.error ?? '').toBe('completed');
    expect(done.script!.total_seconds).toBe(100);
    expect(fake.requests[1]!.body.messages[3]!.content).toContain(
      'the script lasts 45 seconds, outside the 90-120 seconds a Website Demo must fit',
    );
  });

  it('fails with a clear message when the script does not fit twice', async () => {
    fake.plan(answer(scriptOf(30)), answer(scriptOf(150)));
    const done = await run({ type: 'company_overview' });
    expect(done.status).toBe('failed');
    expect(done.error).toBe(
      "The AI provider's script did not fit the video length after two tries: the script lasts 150 seconds, outside the 60-90 seconds a Company Overview must fit.",
    );
    expect(fake.requests).toHaveLength(2);
  });

  it('fails with a clear message when the answer is malformed twice', async () => {
    fake.plan(answer('not json'), answer({ title: 'x', total_seconds: 75, scenes: [{ start_second: 0, end_second: 75 }] }));
    const done = await run({ type: 'company_overview' });
    expect(done.status).toBe('failed');
    expect(done.error).toMatch(
      /^The AI provider's answer could not be used after two tries: the JSON did not have the required shape \(scenes\.0/,
    );
    expect(done.error).toContain('(first try: the answer was not valid JSON)');
  });
});
