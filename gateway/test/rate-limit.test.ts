import { MESSAGES } from '@countinghouse/proto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN, login, startTestGateway, type TestGateway } from './helpers.js';

let gw: TestGateway;
beforeAll(async () => {
  gw = await startTestGateway({ signInMax: 3 });
});
afterAll(async () => {
  await gw?.close();
});

it('rate limits sign-in per client address with 429 and Retry-After', async () => {
  const codes: number[] = [];
  for (let i = 0; i < 4; i++) codes.push((await login(gw.app, { username: ADMIN.username, password: 'wrong' })).statusCode);
  expect(codes).toEqual([401, 401, 401, 429]);
  const limited = await login(gw.app);
  expect(limited.statusCode).toBe(429);
  expect(limited.json().error).toEqual({ code: 'RATE_LIMITED', message: MESSAGES.tooManyRequests });
  expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  // other routes are not limited
  expect((await gw.app.inject({ method: 'GET', url: '/api/public/config' })).statusCode).toBe(200);
});

it('rate limits forgot-password per client address too (each request may send an e-mail)', async () => {
  const codes: number[] = [];
  for (let i = 0; i < 4; i++)
    codes.push(
      (await gw.app.inject({ method: 'POST', url: '/api/identity/auth/forgot-password', payload: { email: `x${i}@example.co.uk` } }))
        .statusCode,
    );
  expect(codes).toEqual([200, 200, 200, 429]);
});
