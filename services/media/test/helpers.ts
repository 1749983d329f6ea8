import { ensureInitialAdmin } from '@countinghouse/identity';
import { createTestKit, waitFor } from '@countinghouse/kit/testing';
import type { OpenAiOptions } from '@countinghouse/media';
import type { ScriptRecord } from '@countinghouse/proto';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { pino } from 'pino';
import { composeAllInOne } from '../../../gateway/src/compose.js';
import { ADMIN, bearer, type TestGateway } from '../../../gateway/test/helpers.js';

export const PRACTICE = { name: 'Test Practice', phone: '0100', email: 'a@b.c' };

/** startTestGateway with an AI provider configured for media (everything else the same). */
export async function startMediaGateway(openai: OpenAiOptions | null): Promise<TestGateway> {
  const kit = await createTestKit();
  const app = await composeAllInOne({
    runtime: kit.runtime,
    signer: kit.signer,
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    frontendDir: null,
    signInMax: 1000,
    publicConfig: () => ({ demoMode: true, maintenance: false, practice: PRACTICE }),
    services: { media: { openai } },
  });
  await ensureInitialAdmin(kit.runtime.db, ADMIN);
  return {
    kit,
    app,
    async close() {
      await app.close();
      await kit.close();
    },
  };
}

export async function generate(gw: TestGateway, token: string, body: object) {
  return gw.app.inject({ method: 'POST', url: '/api/media/scripts', headers: bearer(token), payload: body });
}

/** Poll the script until it is completed or failed, as the UI does. */
export async function waitDone(gw: TestGateway, token: string, id: string, timeoutMs = 15_000): Promise<ScriptRecord> {
  return waitFor(
    async () => {
      const r = await gw.app.inject({ method: 'GET', url: `/api/media/scripts/${id}`, headers: bearer(token) });
      const s = r.json() as ScriptRecord;
      return s.status === 'completed' || s.status === 'failed' ? s : null;
    },
    `script ${id} finished`,
    timeoutMs,
    25,
  );
}

export async function getScript(gw: TestGateway, token: string, id: string): Promise<ScriptRecord> {
  return (await gw.app.inject({ method: 'GET', url: `/api/media/scripts/${id}`, headers: bearer(token) })).json() as ScriptRecord;
}

// ---- a local server that speaks the Chat Completions API ----

export interface ChatRequest {
  at: number;
  headers: FastifyRequest['headers'];
  body: {
    model: string;
    messages: { role: string; content: string }[];
    response_format?: { type: string };
  };
}

type Behaviour = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown> | unknown;

/** The documented response of POST /v1/chat/completions. */
export function completion(content: string, o: { model?: string; finish_reason?: string } = {}) {
  return {
    id: `chatcmpl-test${Math.random().toString(36).slice(2, 10)}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: o.model ?? 'gpt-test-mini',
    choices: [
      { index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: o.finish_reason ?? 'stop' },
    ],
    usage: { prompt_tokens: 420, completion_tokens: 380, total_tokens: 800 },
  };
}

export const answer =
  (content: string | object, o: { model?: string; finish_reason?: string } = {}): Behaviour =>
  () =>
    completion(typeof content === 'string' ? content : JSON.stringify(content), o);

export const slow =
  (ms: number, then: Behaviour): Behaviour =>
  async (req, reply) => {
    await new Promise((r) => setTimeout(r, ms));
    if (req.raw.destroyed || reply.raw.destroyed) return reply.hijack();
    return then(req, reply);
  };

export const status =
  (code: number, headers: Record<string, string> = {}, message = 'error'): Behaviour =>
  (_req, reply) =>
    reply
      .status(code)
      .headers(headers)
      .send({ error: { message, type: code === 429 ? 'rate_limit_exceeded' : 'server_error', param: null, code: null } });

export const raw =
  (body: string, contentType: string): Behaviour =>
  (_req, reply) =>
    reply.header('content-type', contentType).send(body);

/** An OpenAI-compatible server on 127.0.0.1: each request takes the next behaviour (the last repeats). */
export async function startFakeOpenAi() {
  const app = Fastify({ forceCloseConnections: true });
  const requests: ChatRequest[] = [];
  let plan: Behaviour[] = [];
  app.post('/v1/chat/completions', async (req, reply) => {
    requests.push({ at: Date.now(), headers: req.headers, body: req.body as ChatRequest['body'] });
    const next = plan.length > 1 ? plan.shift()! : plan[0];
    if (!next) return reply.status(500).send({ error: { message: 'no plan' } });
    return next(req, reply);
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    /** Set what the next requests get, and forget earlier requests. */
    plan(...behaviours: Behaviour[]) {
      plan = behaviours;
      requests.length = 0;
    },
    close: () => app.close(),
  };
}

/** A script in the answer shape lasting `seconds` (scenes of ~15 s). */
export function scriptOf(seconds: number, title = 'Numbers, sorted') {
  const scenes = [];
  for (let t = 0; t < seconds; t += 15) {
    const end = Math.min(seconds, t + 15);
    scenes.push({
      start_second: t,
      end_second: end,
      narration: `Narration from ${t} to ${end}.`,
      on_screen_text: `Text ${t}`,
      visual: `Shot ${t}`,
    });
  }
  return { title, total_seconds: seconds, scenes };
}
