import { Type } from '@sinclair/typebox';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { AppError, ConfigError, RevocationList, createApp, parseConfig } from '../src/index.js';

describe('error shape', () => {
  const app = createApp({ logger: pino({ level: 'silent' }) });
  app.get('/boom', async () => {
    throw new Error('secret database detail');
  });
  app.get('/conflict', async () => {
    throw new AppError('CONFLICT', 'Already there');
  });
  app.post('/typed', { schema: { body: Type.Object({ n: Type.Integer() }) } }, async () => ({ ok: true }));

  it('hides internals of a 500 and gives an error id', async () => {
    const r = await app.inject({ method: 'GET', url: '/boom' });
    expect(r.statusCode).toBe(500);
    const { error } = r.json();
    expect(error.code).toBe('INTERNAL');
    expect(error.errorId).toMatch(/^[0-9a-f-]{36}$/);
    expect(r.body).not.toContain('secret');
  });
  it('maps an AppError code to its status', async () => {
    const r = await app.inject({ method: 'GET', url: '/conflict' });
    expect(r.statusCode).toBe(409);
    expect(r.json()).toEqual({ error: { code: 'CONFLICT', message: 'Already there' } });
  });
  it('answers validation failures with details', async () => {
    const r = await app.inject({ method: 'POST', url: '/typed', payload: { n: 'abc' } });
    expect(r.statusCode).toBe(400);
    expect(r.json().error.code).toBe('VALIDATION_FAILED');
    expect(r.json().error.details[0].path).toBe('n');
  });
  it('answers unknown routes with the JSON 404', async () => {
    const r = await app.inject({ method: 'GET', url: '/nowhere' });
    expect(r.statusCode).toBe(404);
    expect(r.json().error.code).toBe('NOT_FOUND');
  });
  it('echoes a sane x-request-id and replaces an unsafe one', async () => {
    const ok = await app.inject({ method: 'GET', url: '/nowhere', headers: { 'x-request-id': 'abcdef123456' } });
    expect(ok.headers['x-request-id']).toBe('abcdef123456');
    const bad = await app.inject({ method: 'GET', url: '/nowhere', headers: { 'x-request-id': 'x\u0000<script>' } });
    expect(bad.headers['x-request-id']).not.toContain('<');
  });
});

describe('config', () => {
  const schema = Type.Object({
    PORT: Type.Integer({ minimum: 1, maximum: 65535, default: 3000 }),
    DATABASE_URL: Type.String({ pattern: '^postgres' }),
    FLAG: Type.Boolean({ default: false }),
    SECRET_KEY: Type.String({ minLength: 10 }),
  });
  it('converts and defaults', () => {
    const c = parseConfig(schema, { DATABASE_URL: 'postgres://x', FLAG: 'true', SECRET_KEY: '0123456789' });
    expect(c).toEqual({ PORT: 3000, DATABASE_URL: 'postgres://x', FLAG: true, SECRET_KEY: '0123456789' });
  });
  it('fails fast listing every problem, without echoing secrets', () => {
    let err: unknown;
    try {
      parseConfig(schema, { PORT: 'seventy', DATABASE_URL: 'mysql://x', SECRET_KEY: 'short' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const msg = (err as Error).message;
    expect(msg).toContain('PORT');
    expect(msg).toContain('DATABASE_URL');
    expect(msg).toContain('SECRET_KEY');
    expect(msg).not.toContain('short');
  });
});

describe('revocation list', () => {
  it('refuses revoked sessions and tokens issued before a subject cut-off', () => {
    const r = new RevocationList();
    r.revokeSession('s1', Math.floor(Date.now() / 1000) + 60);
    r.revokeSubjectBefore('u1', 1000);
    expect(r.isRevoked({ sessionId: 's1', id: 'u9', issuedAt: 5 })).toBe(true);
    expect(r.isRevoked({ sessionId: 's2', id: 'u1', issuedAt: 999 })).toBe(true);
    expect(r.isRevoked({ sessionId: 's2', id: 'u1', issuedAt: 1000 })).toBe(false);
    expect(r.isRevoked({ sessionId: 's2', id: 'u2', issuedAt: 1 })).toBe(false);
  });
});

describe('auth context in nested scopes', () => {
  async function build(sameVerifier: boolean) {
    const { TokenSigner, TokenVerifier, authContext, generateSigningKeys } = await import('../src/index.js');
    const keys = generateSigningKeys();
    const signer = await TokenSigner.fromPem(keys.privateKeyPem);
    const rootVerifier = await TokenVerifier.fromPem(keys.publicKeyPem);
    const innerVerifier = sameVerifier ? rootVerifier : await TokenVerifier.fromPem(keys.publicKeyPem);
    const calls = { root: 0, inner: 0 };
    const verifiers = sameVerifier
      ? ([[rootVerifier, 'root']] as const)
      : ([
          [rootVerifier, 'root'],
          [innerVerifier, 'inner'],
        ] as const);
    for (const [v, k] of verifiers) {
      const verify = v.verify.bind(v);
      v.verify = async (t: string) => {
        calls[k]++;
        return verify(t);
      };
    }
    const app = createApp({ logger: pino({ level: 'silent' }) });
    await app.register(authContext, { verifier: rootVerifier });
    await app.register(
      async (scope) => {
        await scope.register(authContext, { verifier: innerVerifier });
        scope.get('/who', async (req) => ({ id: req.principal?.id ?? null }));
      },
      { prefix: '/svc' },
    );
    const { token } = await signer.sign({ sub: 'u1', sid: 's1', knd: 'user', roles: ['client'], name: 'U' });
    const r = await app.inject({ method: 'GET', url: '/svc/who', headers: { authorization: `Bearer ${token}` } });
    return { body: r.json(), calls };
  }
  it('verifies a token once when a plugin inside the gateway shares its verifier (all-in-one)', async () => {
    const { body, calls } = await build(true);
    expect(body).toEqual({ id: 'u1' });
    expect(calls.root + calls.inner).toBe(1);
  });
  it('verifies again when the inner scope brings its own verifier', async () => {
    const { body, calls } = await build(false);
    expect(body).toEqual({ id: 'u1' });
    expect(calls).toEqual({ root: 1, inner: 1 });
  });
});

describe('logs (issue 22: readable on a terminal, request lines at debug)', () => {
  /** A logger whose JSON lines are kept in memory. */
  function captured(level: string) {
    const lines: Array<Record<string, unknown>> = [];
    const logger = pino({ level }, { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) });
    return { logger, lines };
  }

  it('writes no line per request at info', async () => {
    const { logger, lines } = captured('info');
    const app = createApp({ logger });
    app.get('/ok', async () => ({ ok: true }));
    expect((await app.inject({ method: 'GET', url: '/ok' })).statusCode).toBe(200);
    expect(lines).toEqual([]);
    await app.close();
  });

  it('writes one line per request at debug: method, url, status and time', async () => {
    const { logger, lines } = captured('debug');
    const app = createApp({ logger });
    app.get('/ok', async () => ({ ok: true }));
    await app.inject({ method: 'GET', url: '/ok?x=1' });
    const requests = lines.filter((l) => l.msg === 'request');
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ level: 20, method: 'GET', url: '/ok?x=1', statusCode: 200 });
    expect(typeof requests[0]!.ms).toBe('number');
    await app.close();
  });

  it('prints JSON when stdout is not a terminal, and one readable line through pino-pretty on a terminal', async () => {
    const { createLogger } = await import('../src/runtime.js');
    const json = createLogger('kit-test', 'info', { pretty: false });
    const pretty = createLogger('kit-test', 'info', { pretty: true });
    const streamOf = (l: object) => (l as Record<symbol, { write?: unknown; constructor: { name: string } }>)[pino.symbols.streamSym];
    // JSON goes straight to stdout (sonic-boom); pretty goes through pino-pretty's transform stream.
    expect(streamOf(json)?.constructor.name).toBe('SonicBoom');
    expect(streamOf(pretty)?.constructor.name).not.toBe('SonicBoom');
    expect(typeof streamOf(pretty)?.write).toBe('function');
  });
});
