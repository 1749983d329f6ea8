import { seedCrmDemo } from '@countinghouse/crm';
import { seedDeadlinesDemo } from '@countinghouse/deadlines';
import { DEMO_PEOPLE, seedIdentityDemo } from '@countinghouse/identity';
import { WORKSPACE_ROUTES, type ClientRecord, type WorkReply } from '@countinghouse/proto';
import { waitFor } from '@countinghouse/kit/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, startTestGateway, type TestGateway } from './helpers.js';

// The demo practice as the all-in-one seeds it (issue 26): an MLRO, accountants with assigned clients and
// tax profiles for most clients, so a demo accountant who signs in at /login lands on a real My work.
const DEMO_PASSWORD = 'Demo-Practice-Pass-7';
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
  new Date(),
);

describe('the demo practice’s workspace', () => {
  let gw: TestGateway;
  const signIn = async (email: string) => {
    const r = await gw.app.inject({ method: 'POST', url: '/api/identity/auth/login', payload: { email, password: DEMO_PASSWORD } });
    expect(r.statusCode, r.body).toBe(200);
    return r.json() as { access_token: string; home: string; roles: string[]; user: { user_id: string } };
  };

  beforeAll(async () => {
    gw = await startTestGateway();
    const people = await seedIdentityDemo(gw.kit.runtime.db, { nodeEnv: 'test', password: DEMO_PASSWORD });
    const accountantIds = (people.people ?? []).filter((p) => p.role === 'accountant').map((p) => p.id);
    const crm = await seedCrmDemo(gw.kit.runtime.db, new Date(), { accountantIds });
    const seeded = await seedDeadlinesDemo(gw.kit.runtime.db, crm.made!, today);
    expect(seeded.seeded).toBeGreaterThan(crm.made!.length / 2);
  }, 60_000);
  afterAll(async () => gw?.close());

  it('has an MLRO: a manager who also holds mlro', async () => {
    const margaret = DEMO_PEOPLE.find((p) => p.alsoRoles?.includes('mlro'))!;
    const me = await signIn(margaret.email);
    expect(me.roles).toEqual(expect.arrayContaining(['manager', 'mlro']));
  });

  it('a demo accountant signs in at /login, lands on My work with overdue and coming deadlines of their clients only', async () => {
    const [priya, owen] = DEMO_PEOPLE.filter((p) => p.role === 'accountant');
    const me = await signIn(priya!.email);
    expect(me.home).toBe('/work');
    const token = me.access_token;
    let work: WorkReply = { items: [], today, who: 'mine' };
    let lastAnswer = '';
    await waitFor(
      async () => {
        // The directory learns each client's accountant from crm's events.
        const r = await gw.app.inject({ method: 'GET', url: WORKSPACE_ROUTES.workDeadlines, headers: bearer(token) });
        lastAnswer = `${r.statusCode} ${r.body.slice(0, 300)}`;
        if (r.statusCode !== 200) return false;
        work = r.json();
        return work.items.some((i) => i.bucket === 'overdue');
        // (the demo's events reach every consumer first: on 2 cores beside a browser file, 10 s was not enough)
      },
      'My work deadlines',
      45_000,
    ).catch(async (e: Error) => {
      // (what My work answered last, and what the directory holds: a timeout alone says nothing)
      const { rows } = await gw.kit.runtime.pool.query(
        `select count(*)::int as clients, count(assigned_accountant_id)::int as assigned from deadlines.client_directory`,
      );
      throw new Error(`${e.message}; last answer: ${lastAnswer}; directory: ${JSON.stringify(rows[0])}; today ${today}`);
    });
    expect(work.items[0]!.bucket).toBe('overdue');
    expect(work.items.every((i) => i.assignee_id === me.user.user_id)).toBe(true);
    // One of theirs opens; one of Owen's is refused.
    const { rows } = await gw.kit.runtime.pool.query<{ id: string; assigned_accountant_id: string }>(
      'select id, assigned_accountant_id from crm.clients where assigned_accountant_id is not null',
    );
    const mine = rows.find((r) => r.assigned_accountant_id === me.user.user_id)!;
    const theirs = rows.find((r) => r.assigned_accountant_id !== me.user.user_id)!;
    expect(owen).toBeDefined();
    const record = await gw.app.inject({ method: 'GET', url: WORKSPACE_ROUTES.clientRecord(mine.id), headers: bearer(token) });
    expect(record.statusCode, record.body).toBe(200);
    expect((record.json() as ClientRecord).client.assigned_accountant_id).toBe(me.user.user_id);
    expect((await gw.app.inject({ method: 'GET', url: WORKSPACE_ROUTES.clientRecord(theirs.id), headers: bearer(token) })).statusCode).toBe(
      403,
    );
    const deadlines = await gw.app.inject({ method: 'GET', url: `/api/deadlines/clients/${mine.id}/deadlines`, headers: bearer(token) });
    expect(deadlines.statusCode).toBe(200);
  }, 60_000);
});
