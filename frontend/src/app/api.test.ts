import { describe, expect, it } from 'vitest';
import { api } from './api';
import { makeStore } from './store';
import { apiError, json, mockFetch } from '../test/fetch-mock';

const REFRESH = 'POST /api/identity/admin/refresh';
const alice = { id: 'a1', username: 'alice', role: 'admin' } as const;

// Two admin reads, as later features will add them.
const testApi = api.injectEndpoints({
  endpoints: (build) => ({
    testClients: build.query<{ n: number }, void>({ query: () => '/crm/clients' }),
    testLeads: build.query<{ n: number }, void>({ query: () => '/crm/leads' }),
  }),
});

describe('baseQueryWithReauth', () => {
  it('shares one refresh between parallel 401s and retries each request once', async () => {
    let release!: () => void;
    const refreshGate = new Promise<void>((resolve) => (release = resolve));
    const { callsTo } = mockFetch({
      'GET /api/crm/clients': [() => apiError(401, 'SESSION_EXPIRED', 'Session expired'), () => json(200, { n: 1 })],
      'GET /api/crm/leads': [() => apiError(401, 'SESSION_EXPIRED', 'Session expired'), () => json(200, { n: 2 })],
      [REFRESH]: async () => {
        await refreshGate;
        return json(200, { success: true, user: alice, expires_at: '2026-03-05T18:00:00Z' });
      },
    });
    const store = makeStore({ adminSession: { user: alice, ended: null } });

    const clients = store.dispatch(testApi.endpoints.testClients.initiate());
    const leads = store.dispatch(testApi.endpoints.testLeads.initiate());
    await new Promise((r) => setTimeout(r, 20));
    release();

    expect((await clients).data).toEqual({ n: 1 });
    expect((await leads).data).toEqual({ n: 2 });
    expect(callsTo(REFRESH)).toHaveLength(1);
    expect(store.getState().adminSession).toEqual({ user: alice, ended: null });
  });

  it('ends the session as "expired" when the refresh fails for a signed-in admin', async () => {
    const { callsTo } = mockFetch({
      'GET /api/crm/clients': () => apiError(401, 'SESSION_EXPIRED', 'Session expired'),
      [REFRESH]: () => apiError(401, 'SESSION_EXPIRED', 'Session expired'),
    });
    const store = makeStore({ adminSession: { user: alice, ended: null } });
    const result = await store.dispatch(testApi.endpoints.testClients.initiate());

    expect(result.error).toMatchObject({ status: 401 });
    expect(callsTo('GET /api/crm/clients')).toHaveLength(1);
    expect(store.getState().adminSession).toEqual({ user: null, ended: 'expired' });
  });

  it('ends the session as "no-session" when nobody was signed in', async () => {
    mockFetch({
      'GET /api/crm/clients': () => apiError(401, 'UNAUTHENTICATED', 'Authentication required'),
      [REFRESH]: () => apiError(401, 'UNAUTHENTICATED', 'Please log in to access the admin panel'),
    });
    const store = makeStore({ adminSession: { user: null, ended: null } });
    await store.dispatch(testApi.endpoints.testClients.initiate());
    expect(store.getState().adminSession.ended).toBe('no-session');
  });

  it('counts an expired refresh session as a session that existed', async () => {
    mockFetch({
      'GET /api/crm/clients': () => apiError(401, 'UNAUTHENTICATED', 'Authentication required'),
      [REFRESH]: () => apiError(401, 'SESSION_EXPIRED', 'Session expired. Please log in again.'),
    });
    const store = makeStore({ adminSession: { user: null, ended: null } });
    await store.dispatch(testApi.endpoints.testClients.initiate());
    expect(store.getState().adminSession.ended).toBe('expired');
  });

  it('leaves other errors alone: no refresh for a 403 or a 500', async () => {
    const { callsTo } = mockFetch({
      'GET /api/crm/clients': () => apiError(403, 'FORBIDDEN', 'Forbidden'),
      'GET /api/crm/leads': () => apiError(500, 'INTERNAL', 'Something went wrong'),
    });
    const store = makeStore({ adminSession: { user: alice, ended: null } });
    await store.dispatch(testApi.endpoints.testClients.initiate());
    await store.dispatch(testApi.endpoints.testLeads.initiate());
    expect(callsTo(REFRESH)).toHaveLength(0);
    expect(store.getState().adminSession.user).toEqual(alice);
  });
});
