import { waitFor } from '@countinghouse/kit/testing';
import { JOBS_MESSAGES, JOBS_ROUTES, type JobsOverview } from '@countinghouse/proto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, makePerson, startTestGateway, type Person, type TestGateway } from './helpers.js';

// The job status API (/api/jobs): schedules with last and next run, failed jobs with their error,
// Retry, the notification a final failure raises, and who may see any of it.
let gw: TestGateway;
let admin = '';
let manager: Person;

beforeAll(async () => {
  gw = await startTestGateway();
  admin = (await login(gw.app)).json().session_token;
  manager = await makePerson(gw, 'manager@jobs.example', ['manager']);
});
afterAll(async () => {
  await gw?.close();
});

const overview = async (token = admin): Promise<JobsOverview> => {
  const r = await gw.app.inject({ method: 'GET', url: JOBS_ROUTES.overview, headers: bearer(token) });
  expect(r.statusCode, r.body).toBe(200);
  return r.json();
};

describe('job status API', () => {
  it('lists the identity housekeeping schedule with its next run (03:30 London time)', async () => {
    const o = await overview();
    expect(o.queue).toBe('postgres');
    const s = o.schedules.find((x) => x.key === 'identity.housekeeping');
    expect(s).toMatchObject({
      job: 'identity.purge_expired_sessions',
      label: 'Sign-in housekeeping',
      cron: '30 3 * * *',
      time_zone: 'Europe/London',
      last_run_at: null,
      last_outcome: null,
    });
    const next = new Date(s!.next_run_at);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    expect(next.toLocaleTimeString('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit' })).toBe('03:30');
  });

  it('shows a job that failed for good with its error, raises one notification, and Retry runs it again', async () => {
    let failing = true;
    let runs = 0;
    // The housekeeping job's processor, replaced for this test by one that fails until told otherwise.
    gw.kit.runtime.jobs.process('identity.purge_expired_sessions', async () => {
      runs++;
      if (failing) throw new Error('The database refused the delete');
      return { purged: 0 };
    });
    const id = await gw.kit.runtime.jobs.enqueue('identity.purge_expired_sessions', { olderThanDays: 30 }, { attempts: 2, backoffMs: 10 });
    const failed = await waitFor(async () => (await overview()).failed.find((f) => f.id === id), 'the failed job listed');
    expect(failed).toMatchObject({
      name: 'identity.purge_expired_sessions',
      label: 'Sign-in housekeeping',
      error: 'The database refused the delete',
      attempts: 2,
      schedule_key: null,
    });
    expect(failed.failed_at).not.toBeNull();
    expect(runs).toBe(2);

    // one notification for the final failure, none for the retry before it
    const notes = await waitFor(async () => {
      const r = await gw.app.inject({ method: 'GET', url: '/api/notifications?kind=job_failed', headers: bearer(admin) });
      const items = r.json().notifications as Array<{ kind: string; body: string; link: string }>;
      return items.length > 0 ? items : null;
    }, 'a job_failed notification');
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ kind: 'job_failed', link: '/admin/jobs' });
    expect(notes[0]!.body).toBe('Sign-in housekeeping failed after 2 attempts: The database refused the delete');

    failing = false;
    const r = await gw.app.inject({ method: 'POST', url: JOBS_ROUTES.retry(failed.name, id), headers: bearer(admin) });
    expect(r.statusCode, r.body).toBe(202);
    expect(r.json()).toEqual({ retried: true, id });
    const done = await waitFor(async () => {
      const s = await gw.kit.runtime.jobs.status('identity.purge_expired_sessions', id);
      return s?.state === 'completed' ? s : null;
    }, 'the retried job completed');
    expect(done).toMatchObject({ attemptsMade: 3, result: { purged: 0 } });
    expect(runs).toBe(3);
    expect((await overview()).failed.find((f) => f.id === id)).toBeUndefined();

    // a second Retry of a job that is no longer failed: 404 with the reason
    const again = await gw.app.inject({ method: 'POST', url: JOBS_ROUTES.retry(failed.name, id), headers: bearer(admin) });
    expect(again.statusCode).toBe(404);
    expect(again.json().error).toEqual({ code: 'NOT_FOUND', message: JOBS_MESSAGES.retryNotFound });
    const unknown = await gw.app.inject({ method: 'POST', url: JOBS_ROUTES.retry('no.such_job', id), headers: bearer(admin) });
    expect(unknown.statusCode).toBe(404);
  });

  it('is for administrators only: a manager is refused (403), an anonymous caller 401', async () => {
    const r = await gw.app.inject({ method: 'GET', url: JOBS_ROUTES.overview, headers: bearer(manager.token) });
    expect(r.statusCode).toBe(403);
    const retry = await gw.app.inject({
      method: 'POST',
      url: JOBS_ROUTES.retry('identity.purge_expired_sessions', 'x'),
      headers: bearer(manager.token),
    });
    expect(retry.statusCode).toBe(403);
    expect((await gw.app.inject({ method: 'GET', url: JOBS_ROUTES.overview })).statusCode).toBe(401);
  });
});
