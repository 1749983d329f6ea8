import Fastify, { type FastifyInstance } from 'fastify';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cutSpec, startPrism, type PrismServer } from '../../integrations/test/prism.js';
import type { PracticeFacts } from '../src/domain/facts.js';
import { OpenAiScriptGenerator } from '../src/adapters/generators/openai.js';
import { scriptOf } from './helpers.js';

/**
 * The script generator against OpenAI's own OpenAPI file (openai/openai-openapi, cut to
 * POST /chat/completions) served by Prism. Prism answers the file's example completion; the proxy in
 * front keeps that documented answer and only puts a script in the message content (or, asked to,
 * answers a 429 with Retry-After first).
 */
const SPEC = '/work/shared/provider-specs/openai-openapi.yaml';
const FACTS: PracticeFacts = {
  name: 'Test Practice',
  phone: '020 7946 0321',
  email: 'hello@test-practice.co.uk',
  audiences: ['sole traders'],
  packages: [{ name: 'Growth', monthlyFee: 100 }],
  services: ['bookkeeping'],
  websiteSteps: ['choose a package'],
};

let dir: string;
let prism: PrismServer;
let proxy: FastifyInstance;
let baseUrl = '';
let content: string | null = null;
const injected: Array<{ status: 429; retryAfter: string }> = [];
const verdicts: number[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'openai-prism-'));
  prism = await startPrism(cutSpec(SPEC, ['/chat/completions'], join(dir, 'openai.json')));
  proxy = Fastify({ logger: false, forceCloseConnections: true });
  proxy.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  proxy.post('/v1/chat/completions', async (req, reply) => {
    const next = injected.shift();
    if (next) {
      return reply
        .status(429)
        .header('retry-after', next.retryAfter)
        .send({ error: { message: 'Rate limit reached', type: 'requests', param: null, code: 'rate_limit_exceeded' } });
    }
    const res = await fetch(`${prism.url}/chat/completions`, {
      method: 'POST',
      headers: { authorization: String(req.headers.authorization ?? ''), 'content-type': 'application/json' },
      body: String(req.body),
    });
    verdicts.push(res.status);
    const documented = (await res.json()) as { choices: Array<{ message: Record<string, unknown> }> };
    if (res.status !== 200 || content === null) return reply.status(res.status).send(documented);
    const choice = documented.choices[0]!;
    choice.message = { ...choice.message, content, refusal: null, tool_calls: undefined, function_call: undefined };
    return documented;
  });
  baseUrl = `${await proxy.listen({ port: 0, host: '127.0.0.1' })}/v1`;
}, 300_000);

afterAll(async () => {
  await proxy?.close();
  await prism?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const generator = () =>
  new OpenAiScriptGenerator({ apiKey: 'sk-test-prism', baseUrl, retryBaseMs: 10, maxRetryAfterMs: 5000 }, pino({ level: 'silent' }));

describe('OpenAI Chat Completions, against its own OpenAPI file (Prism)', () => {
  it('the documented completion, carrying a script, becomes the video script', async () => {
    content = JSON.stringify(scriptOf(75));
    verdicts.length = 0;
    const result = await generator().generate({ type: 'company_overview', prompt: null, facts: FACTS }, async () => {});
    expect(verdicts).toEqual([200]);
    expect(result.script.total_seconds).toBe(75);
    expect(result.script.scenes).toHaveLength(5);
  });

  it('the file’s own example answer (content "string") is not a script: refused after one regeneration, with a clear message', async () => {
    content = null;
    verdicts.length = 0;
    const err = await generator()
      .generate({ type: 'company_overview', prompt: null, facts: FACTS }, async () => {})
      .catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/could not be used after two tries/);
    expect(verdicts).toEqual([200, 200]);
  });

  it('waits a 429’s Retry-After, then succeeds', async () => {
    content = JSON.stringify(scriptOf(75));
    injected.push({ status: 429, retryAfter: '1' });
    const t0 = Date.now();
    const result = await generator().generate({ type: 'company_overview', prompt: null, facts: FACTS }, async () => {});
    expect(Date.now() - t0).toBeGreaterThanOrEqual(950);
    expect(result.script.total_seconds).toBe(75);
  });
});
