import { describe, expect, it, vi } from 'vitest';
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

// People's sessions (staff and clients): `auth: 'user'` refreshes with POST /identity/auth/refresh.
const PERSON_REFRESH = 'POST /api/identity/auth/refresh';
const personApi = api.injectEndpoints({
  endpoints: (build) => ({
    testMe: build.query<{ n: number }, void>({ query: () => '/identity/auth/me', extraOptions: { auth: 'user' } }),
    testStaff: build.query<{ n: number }, void>({ query: () => '/identity/staff', extraOptions: { auth: 'user' } }),
  }),
});

describe('baseQueryWithReauth, person sessions', () => {
  it('shares one person refresh between parallel 401s and never touches the admin refresh', async () => {
    const { callsTo } = mockFetch({
      'GET /api/identity/auth/me': [() => apiError(401, 'SESSION_EXPIRED', 'expired'), () => json(200, { n: 1 })],
      'GET /api/identity/staff': [() => apiError(401, 'SESSION_EXPIRED', 'expired'), () => json(200, { n: 2 })],
      [PERSON_REFRESH]: async () => {
        await new Promise((r) => setTimeout(r, 20));
        return json(200, {});
      },
    });
    const store = makeStore();
    const [me, staff] = await Promise.all([
      store.dispatch(personApi.endpoints.testMe.initiate()),
      store.dispatch(personApi.endpoints.testStaff.initiate()),
    ]);
    expect(me.data).toEqual({ n: 1 });
    expect(staff.data).toEqual({ n: 2 });
    expect(callsTo(PERSON_REFRESH)).toHaveLength(1);
    expect(callsTo(REFRESH)).toHaveLength(0);
    expect(store.getState().personSession.ended).toBeNull();
  });

  it('ends the person session (not the admin one) when the refresh is refused', async () => {
    mockFetch({
      'GET /api/identity/auth/me': () => apiError(401, 'SESSION_EXPIRED', 'expired'),
      [PERSON_REFRESH]: () => apiError(401, 'SESSION_EXPIRED', 'Your session expired. Please log in again.'),
    });
    const store = makeStore({ adminSession: { user: alice, ended: null } });
    await store.dispatch(personApi.endpoints.testMe.initiate());
    expect(store.getState().personSession.ended).toBe('expired');
    expect(store.getState().adminSession).toEqual({ user: alice, ended: null });
  });

  it('retries the refresh after network errors with a 200 ms doubling backoff, then carries on', async () => {
    vi.useFakeTimers();
    try {
      const { callsTo } = mockFetch({
        'GET /api/identity/auth/me': [() => apiError(401, 'SESSION_EXPIRED', 'expired'), () => json(200, { n: 1 })],
        [PERSON_REFRESH]: [
          () => Promise.reject(new TypeError('Failed to fetch')),
          () => Promise.reject(new TypeError('Failed to fetch')),
          () => json(200, {}),
        ],
      });
      const store = makeStore();
      const pending = store.dispatch(personApi.endpoints.testMe.initiate());
      await vi.advanceTimersByTimeAsync(0);
      expect(callsTo(PERSON_REFRESH)).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(199);
      expect(callsTo(PERSON_REFRESH)).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(callsTo(PERSON_REFRESH)).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(399);
      expect(callsTo(PERSON_REFRESH)).toHaveLength(2);
      await vi.advanceTimersByTimeAsync(1);
      expect(callsTo(PERSON_REFRESH)).toHaveLength(3);
      expect((await pending).data).toEqual({ n: 1 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('does not retry a refused refresh, and keeps the session when the network stays down', async () => {
    const refused = mockFetch({
      'GET /api/identity/auth/me': () => apiError(401, 'SESSION_EXPIRED', 'expired'),
      [PERSON_REFRESH]: () => apiError(401, 'SESSION_EXPIRED', 'expired'),
    });
    await makeStore().dispatch(personApi.endpoints.testMe.initiate());
    expect(refused.callsTo(PERSON_REFRESH)).toHaveLength(1);

    vi.useFakeTimers();
    try {
      const offline = mockFetch({
        'GET /api/identity/auth/me': () => apiError(401, 'SESSION_EXPIRED', 'expired'),
        [PERSON_REFRESH]: () => Promise.reject(new TypeError('Failed to fetch')),
      });
      const store = makeStore();
      const pending = store.dispatch(personApi.endpoints.testMe.initiate());
      await vi.advanceTimersByTimeAsync(200 + 400 + 800);
      await pending;
      expect(offline.callsTo(PERSON_REFRESH)).toHaveLength(4); // the first try and three retries
      expect(store.getState().personSession.ended).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });
});
