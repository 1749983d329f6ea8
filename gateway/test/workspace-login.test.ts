import { MESSAGES } from '@countinghouse/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, makePerson, startTestGateway, type Person, type TestGateway } from './helpers.js';

// /login takes each person to their own place (issue 26): an accountant (and staff) to My work, a
// client to the dashboard; the staff portal's sign-in still refuses an accountant, in the same words.
let gw: TestGateway;
const p = {} as Record<'accountant' | 'staff' | 'mlro' | 'client', Person>;

beforeAll(async () => {
  gw = await startTestGateway();
  p.accountant = await makePerson(gw, 'wl.acc@x.co.uk', ['accountant']);
  p.staff = await makePerson(gw, 'wl.staff@x.co.uk', ['staff']);
  p.mlro = await makePerson(gw, 'wl.mlro@x.co.uk', ['manager', 'mlro']);
  p.client = await makePerson(gw, 'wl.client@x.co.uk', ['client']);
}, 60_000);
afterAll(async () => gw?.close());

const signIn = (who: Person, portal?: 'staff') =>
  gw.app.inject({
    method: 'POST',
    url: '/api/identity/auth/login',
    payload: { email: who.email, password: who.password, ...(portal ? { portal } : {}) },
  });

describe('/login', () => {
  it.each([
    ['accountant', '/work'],
    ['staff', '/work'],
    ['mlro', '/work'],
    ['client', '/dashboard'],
  ] as const)('%s goes to %s, and /me says the same', async (who, home) => {
    const r = await signIn(p[who]);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json().home).toBe(home);
    const me = await gw.app.inject({ method: 'GET', url: '/api/identity/auth/me', headers: bearer(r.json().access_token) });
    expect(me.json().home).toBe(home);
  });

  it("the staff portal's sign-in still refuses an accountant with its own words", async () => {
    const r = await signIn(p.accountant, 'staff');
    expect(r.statusCode).toBe(403);
    expect(r.json().error.message).toBe(MESSAGES.noStaffAccess);
    expect((await signIn(p.staff, 'staff')).statusCode).toBe(200);
  });
});
