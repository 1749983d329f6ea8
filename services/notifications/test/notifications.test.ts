import { InProcessBus } from '@countinghouse/kit';
import { waitFor } from '@countinghouse/kit/testing';
import { subscribeRaise } from '../src/consumers/raise.js';
import {
  NOTIFICATION_KIND_VALUES,
  type MarkReadReply,
  type NotificationList,
  type NotificationPreferences,
  topicOf,
  type UnreadCount,
} from '@countinghouse/proto';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, login, makePerson, startTestGateway, type TestGateway } from '../../../gateway/test/helpers.js';
import { multipart, SAMPLES } from '../../documents/test/helpers.js';
import { clientUpserted, deliver, documentUploaded, envelopeOf, paymentFailed, settle } from './helpers.js';

let gw: TestGateway;
const t = {} as Record<'panelAdmin' | 'grantedAdmin' | 'manager' | 'staff' | 'accountant' | 'client', string>;

const call = (method: 'GET' | 'POST' | 'PUT', url: string, token?: string, payload?: object) =>
  gw.app.inject({ method, url, headers: token ? bearer(token) : {}, payload });
const list = async (token: string, query = '') => (await call('GET', `/api/notifications${query}`, token)).json() as NotificationList;
const unread = async (token: string) => {
  await settle(gw);
  return (await call('GET', '/api/notifications/unread-count', token)).json() as UnreadCount;
};
/** The notifications raised, oldest first (after every cascade of events has run its course). */
const rows = async () => {
  await settle(gw);
  return (await gw.kit.runtime.pool.query('select kind, title, body, link, source_event_id from notifications.notifications order by seq'))
    .rows;
};

beforeAll(async () => {
  gw = await startTestGateway();
  t.panelAdmin = (await login(gw.app)).json().session_token;
  t.grantedAdmin = (await makePerson(gw, 'ada.admin@practice.co.uk', ['admin'])).token;
  t.manager = (await makePerson(gw, 'mia.manager@practice.co.uk', ['manager'])).token;
  t.staff = (await makePerson(gw, 'sam.staff@practice.co.uk', ['staff'])).token;
  t.accountant = (await makePerson(gw, 'ann.accountant@practice.co.uk', ['accountant'])).token;
  t.client = (await makePerson(gw, 'owner@acme.co.uk', ['client'])).token;
});

afterAll(async () => {
  await gw?.close();
});

describe('events raise notifications, once each', () => {
  it('each kind raises exactly one notification even when its event is delivered twice', async () => {
    const client = clientUpserted({ companyName: 'Acme Bakery Ltd', packageName: 'Growth', monthlyFee: 149.5 });
    const events = [
      envelopeOf('crm.client_upserted', client),
      envelopeOf('billing.payment_failed', paymentFailed({ amount: 1249.5, email: 'ada@acme.co.uk', packageName: 'Growth' })),
      envelopeOf('documents.document_uploaded', documentUploaded(client.clientId, { filename: 'vat-q1.pdf', documentType: 'vat' })),
      envelopeOf('identity.staff_joined', {
        userId: randomUUID(),
        email: 'new.starter@practice.co.uk',
        role: 'accountant',
        invitationId: randomUUID(),
      }),
      envelopeOf('integrations.sync_failed', {
        integrationId: randomUUID(),
        clientId: client.clientId,
        integrationType: 'xero',
        reason: 'needs_reconnect',
      }),
    ];
    for (const e of events) {
      await deliver(gw, e);
      await deliver(gw, e); // redelivery (at-least-once)
    }
    const ids = events.map((e) => e.id);
    const raised = (await rows()).filter((r) => ids.includes(r.source_event_id));
    expect(raised).toEqual([
      {
        kind: 'new_client',
        title: 'New client',
        body: 'Acme Bakery Ltd joined as a client on the Growth package (£149.50 a month).',
        link: `/admin/clients?open=${client.clientId}`,
        source_event_id: events[0]!.id,
      },
      {
        kind: 'payment_failed',
        title: 'Failed payment',
        body: 'A payment of £1,249.50 from ada@acme.co.uk for the Growth package failed; the subscription is overdue.',
        link: '/admin/billing',
        source_event_id: events[1]!.id,
      },
      {
        kind: 'document_uploaded',
        title: 'Document uploaded',
        body: 'vat-q1.pdf (VAT Returns) was uploaded for Acme Bakery Ltd.',
        link: '/admin/documents',
        source_event_id: events[2]!.id,
      },
      {
        kind: 'invitation_accepted',
        title: 'Invitation accepted',
        body: 'new.starter@practice.co.uk accepted the invitation and joined as an accountant.',
        link: '/admin/staff',
        source_event_id: events[3]!.id,
      },
      {
        kind: 'integration_sync_failed',
        title: 'Integration sync failed',
        body: 'The Xero sync for Acme Bakery Ltd failed: the client needs to reconnect it.',
        link: `/admin/clients?open=${client.clientId}`,
        source_event_id: events[4]!.id,
      },
    ]);
  });

  it('a later change of the same client (another event) is not a new client; other events raise nothing', async () => {
    const before = (await rows()).length;
    const client = clientUpserted({ companyName: 'Brook Plumbing' });
    await deliver(gw, envelopeOf('crm.client_upserted', client));
    await deliver(
      gw,
      envelopeOf('crm.client_upserted', { ...client, companyName: 'Brook Plumbing & Heating', subscriptionStatus: 'overdue' }),
    );
    await deliver(
      gw,
      envelopeOf('identity.invitation_created', {
        invitationId: randomUUID(),
        email: 'x@y.z',
        role: 'staff',
        expiresAt: new Date().toISOString(),
      }),
    );
    const after = await rows();
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)).toMatchObject({
      kind: 'new_client',
      body: 'Brook Plumbing joined as a client on the Growth package (£149.50 a month).',
    });
    // The directory keeps the newest name for later notifications.
    await deliver(
      gw,
      envelopeOf('documents.document_uploaded', documentUploaded(client.clientId, { filename: 'boiler.pdf', documentType: 'general' })),
    );
    expect((await rows()).at(-1)).toMatchObject({ body: 'boiler.pdf (General) was uploaded for Brook Plumbing & Heating.' });
  });

  it('an AML review falling due raises one "AML review due", dated en-GB, even when delivered twice', async () => {
    const before = (await rows()).length;
    const clientId = randomUUID();
    const e = envelopeOf('aml.review_due', {
      idempotencyKey: `aml-review:${clientId}:2027-11-23`,
      clientId,
      clientName: 'Cashflow Cafe Ltd',
      version: 2,
      nextReviewOn: '2027-11-23',
      assigneeId: randomUUID(),
      title: 'AML review: Cashflow Cafe Ltd',
      description: 'Due for review by 23 Nov 2027.',
    });
    await deliver(gw, e);
    await deliver(gw, e);
    const after = await rows();
    expect(after).toHaveLength(before + 1);
    expect(after.at(-1)).toEqual({
      kind: 'aml_review_due',
      title: 'AML review due',
      body: 'The due diligence of Cashflow Cafe Ltd (version 2) is due for review by 23 Nov 2027; a task was opened for the assigned accountant.',
      link: `/admin/aml?status=review_due&client_id=${clientId}`,
      source_event_id: e.id,
    });
    // A malformed one (no review date) raises nothing.
    await deliver(gw, envelopeOf('aml.review_due', { clientId } as never));
    expect(await rows()).toHaveLength(before + 1);
  });

  it('a malformed event is skipped without blocking the bus', async () => {
    const before = (await rows()).length;
    const bad = envelopeOf('billing.payment_failed', { amount: 'lots' } as never);
    // notifications' own consumer on a bus of its own (other services' consumers are not under test here)
    const bus = new InProcessBus();
    await subscribeRaise({ bus, db: gw.kit.runtime.db, logger: gw.kit.runtime.logger }, 'notifications.raise.malformed-test');
    await expect(bus.publish(topicOf(bad.type), [{ key: null, envelope: bad }])).resolves.toBeUndefined();
    expect(await rows()).toHaveLength(before);
    // and the bus still delivers the next event
    const next = envelopeOf('billing.payment_failed', paymentFailed());
    await bus.publish(topicOf(next.type), [{ key: null, envelope: next }]);
    expect(await rows()).toHaveLength(before + 1);
    expect((await rows()).at(-1)).toMatchObject({ kind: 'payment_failed', source_event_id: next.id });
  });

  it('a real upload through the documents API raises "Document uploaded"', async () => {
    const client = clientUpserted({ companyName: 'Cedar Dental' });
    await deliver(gw, envelopeOf('crm.client_upserted', client));
    const body = multipart({ client_id: client.clientId, document_type: 'payroll' }, [
      { name: 'March payslips.pdf', type: 'application/pdf', data: SAMPLES.pdf() },
    ]);
    const up = await gw.app.inject({
      method: 'POST',
      url: '/api/documents',
      headers: { ...body.headers, ...bearer(t.panelAdmin) },
      payload: body.payload,
    });
    expect(up.statusCode).toBe(201);
    const n = await waitFor(
      async () => (await list(t.panelAdmin, '?kind=document_uploaded')).notifications.find((x) => x.body.startsWith('March payslips.pdf')),
      'the notification',
    );
    expect(n).toMatchObject({
      title: 'Document uploaded',
      body: 'March payslips.pdf (Payroll) was uploaded for Cedar Dental.',
      is_read: false,
    });
  });
});

describe('read state per administrator', () => {
  it('lists newest first; one read, then mark all read, are per recipient', async () => {
    const total = (await rows()).length;
    expect(await unread(t.panelAdmin)).toEqual({ count: total, capped: false });
    expect(await unread(t.grantedAdmin)).toEqual({ count: total, capped: false });

    const all = await list(t.panelAdmin, '?page_size=3');
    expect(all).toMatchObject({ total, total_exact: true, page: 1, page_size: 3 });
    expect(all.notifications).toHaveLength(3);
    expect(all.notifications[0]!.body).toMatch(/^March payslips\.pdf/);
    const times = all.notifications.map((n) => n.created_at);
    expect([...times].sort().reverse()).toEqual(times);

    const target = all.notifications[1]!;
    const read = await call('POST', `/api/notifications/${target.id}/read`, t.panelAdmin);
    expect(read.statusCode).toBe(200);
    expect((read.json() as MarkReadReply).unread).toEqual({ count: total - 1, capped: false });
    // Again: nothing changes.
    expect(((await call('POST', `/api/notifications/${target.id}/read`, t.panelAdmin)).json() as MarkReadReply).unread.count).toBe(
      total - 1,
    );
    expect((await list(t.panelAdmin)).notifications.find((n) => n.id === target.id)!.is_read).toBe(true);
    const unreadList = await list(t.panelAdmin, '?status=unread&page_size=100');
    expect(unreadList.total).toBe(total - 1);
    expect(unreadList.notifications.map((n) => n.id)).not.toContain(target.id);
    // The other administrator's state is their own.
    expect((await unread(t.grantedAdmin)).count).toBe(total);

    const all2 = await call('POST', '/api/notifications/read-all', t.panelAdmin);
    expect(all2.json()).toEqual({ success: true, unread: { count: 0, capped: false } });
    expect((await list(t.panelAdmin, '?status=unread')).notifications).toEqual([]);
    expect((await list(t.panelAdmin)).notifications.every((n) => n.is_read)).toBe(true);
    expect((await unread(t.grantedAdmin)).count).toBe(total);
    // The watermark's receipts are gone: read state is one row plus reads above it.
    const { rows: receipts } = await gw.kit.runtime.pool.query('select count(*)::int as n from notifications.read_receipts');
    expect(receipts[0].n).toBe(0);

    // Something new after 'mark all read' is unread again (crm also makes the payer a client: 'New client').
    await deliver(gw, envelopeOf('billing.payment_failed', paymentFailed({ email: 'late@payer.co.uk' })));
    const fresh = await unread(t.panelAdmin);
    const unreadNow = await list(t.panelAdmin, '?status=unread');
    expect(fresh.count).toBeGreaterThanOrEqual(1);
    expect(unreadNow.total).toBe(fresh.count);
    expect(unreadNow.notifications.map((n) => n.body)).toContain(
      'A payment of £1,249.50 from late@payer.co.uk for the Growth package failed; the subscription is overdue.',
    );
  });

  it('filters by kind; an unknown notification answers 404', async () => {
    const docs = await list(t.grantedAdmin, '?kind=document_uploaded&page_size=100');
    expect(docs.notifications.length).toBeGreaterThan(0);
    expect(docs.notifications.every((n) => n.kind === 'document_uploaded')).toBe(true);
    expect((await call('POST', `/api/notifications/${randomUUID()}/read`, t.grantedAdmin)).statusCode).toBe(404);
    expect((await call('GET', '/api/notifications?kind=nonsense', t.grantedAdmin)).statusCode).toBe(400);
  });
});

describe('preferences', () => {
  it('default to every kind; turning kinds off filters the list and the count, for that administrator only', async () => {
    const every = Object.fromEntries(NOTIFICATION_KIND_VALUES.map((k) => [k, true]));
    expect((await call('GET', '/api/notifications/preferences', t.grantedAdmin)).json()).toEqual({ kinds: every });
    const before = await unread(t.grantedAdmin);
    const docCount = (await list(t.grantedAdmin, '?kind=document_uploaded&status=unread')).total;
    expect(docCount).toBeGreaterThan(0);

    const prefs: NotificationPreferences = { kinds: { ...every, document_uploaded: false } as NotificationPreferences['kinds'] };
    const put = await call('PUT', '/api/notifications/preferences', t.grantedAdmin, prefs);
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual(prefs);
    expect((await call('GET', '/api/notifications/preferences', t.grantedAdmin)).json()).toEqual(prefs);

    expect((await unread(t.grantedAdmin)).count).toBe(before.count - docCount);
    const shown = await list(t.grantedAdmin, '?page_size=100');
    expect(shown.notifications.some((n) => n.kind === 'document_uploaded')).toBe(false);
    expect((await list(t.grantedAdmin, '?kind=document_uploaded')).total).toBe(0);
    // A new upload does not reach them, but does reach the panel administrator.
    const panelBefore = (await unread(t.panelAdmin)).count;
    await deliver(gw, envelopeOf('documents.document_uploaded', documentUploaded(randomUUID())));
    expect((await unread(t.grantedAdmin)).count).toBe(before.count - docCount);
    expect((await unread(t.panelAdmin)).count).toBe(panelBefore + 1);

    // Everything off: nothing to count.
    const none = { kinds: Object.fromEntries(NOTIFICATION_KIND_VALUES.map((k) => [k, false])) };
    await call('PUT', '/api/notifications/preferences', t.grantedAdmin, none);
    expect(await unread(t.grantedAdmin)).toEqual({ count: 0, capped: false });
    expect((await list(t.grantedAdmin)).notifications).toEqual([]);
    await call('PUT', '/api/notifications/preferences', t.grantedAdmin, { kinds: every });
    expect((await unread(t.grantedAdmin)).count).toBe(before.count + 1);
  });

  it('refuses a malformed preferences body', async () => {
    expect((await call('PUT', '/api/notifications/preferences', t.grantedAdmin, { kinds: { new_client: 'yes' } })).statusCode).toBe(400);
    expect((await call('PUT', '/api/notifications/preferences', t.grantedAdmin, { kinds: { bogus: true } })).statusCode).toBe(400);
  });
});

describe('only administrators', () => {
  const endpoints: Array<['GET' | 'POST' | 'PUT', string, object?]> = [
    ['GET', '/api/notifications'],
    ['GET', '/api/notifications/unread-count'],
    ['POST', `/api/notifications/${randomUUID()}/read`],
    ['POST', '/api/notifications/read-all'],
    ['GET', '/api/notifications/preferences'],
    ['PUT', '/api/notifications/preferences', { kinds: Object.fromEntries(NOTIFICATION_KIND_VALUES.map((k) => [k, true])) }],
  ];

  it.each(['manager', 'staff', 'accountant', 'client'] as const)('refuses a %s (403) on every endpoint', async (who) => {
    for (const [method, url, payload] of endpoints) {
      const res = await call(method, url, t[who], payload);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().error.code).toBe('FORBIDDEN');
    }
  });

  it('refuses an anonymous caller (401) on every endpoint', async () => {
    for (const [method, url, payload] of endpoints) {
      expect((await call(method, url, undefined, payload)).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('lets both kinds of administrator in', async () => {
    for (const token of [t.panelAdmin, t.grantedAdmin])
      expect((await call('GET', '/api/notifications/unread-count', token)).statusCode).toBe(200);
  });
});
