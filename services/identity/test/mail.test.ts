import { ensureInitialAdmin } from '@countinghouse/identity';
import { createTestKit, waitFor, type TestKit } from '@countinghouse/kit/testing';
import type { App } from '@countinghouse/kit';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeAllInOne } from '../../../gateway/src/compose.js';
import { ADMIN, bearer, login } from '../../../gateway/test/helpers.js';
import { senderOf } from '../src/domain/sender.js';

/** A message as the local SMTP server received it: the envelope, the unfolded headers and the body. */
interface Received {
  from: string;
  to: string[];
  headers: Map<string, string>;
  body: string;
}

const received: Received[] = [];
let smtp: SMTPServer;
let smtpUrl = '';

function parse(raw: string, from: string, to: string[]): Received {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers = new Map<string, string>();
  for (const line of head.split('\r\n')) {
    const i = line.indexOf(':');
    if (i > 0) headers.set(line.slice(0, i).toLowerCase(), line.slice(i + 1).trim());
  }
  // quoted-printable soft breaks and escapes, as nodemailer writes long text bodies
  const body = raw
    .slice(split + 4)
    .replace(/=\r\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return { from, to, headers, body };
}

let kit: TestKit;
let app: App;
let admin: Record<string, string>;

async function compose(mailFrom: string) {
  return composeAllInOne({
    runtime: kit.runtime,
    signer: kit.signer,
    logger: pino({ level: 'silent' }),
    frontendDir: null,
    signInMax: 1000,
    publicConfig: () => ({
      demoMode: true,
      maintenance: false,
      practice: { name: 'Test Practice', phone: '0100', email: 'office@test-practice.co.uk' },
    }),
    services: { identity: { smtpUrl, mailFrom } },
  });
}

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : '';
        received.push(
          parse(
            Buffer.concat(chunks).toString('utf8'),
            from,
            session.envelope.rcptTo.map((r) => r.address),
          ),
        );
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
  smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  kit = await createTestKit();
  app = await compose('');
  await ensureInitialAdmin(kit.runtime.db, ADMIN);
  admin = bearer((await login(app)).json().session_token);
});
afterAll(async () => {
  await app?.close();
  await kit?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

async function invite(a: App, email: string) {
  const res = await a.inject({ method: 'POST', url: '/api/identity/invitations', headers: admin, payload: { email, role: 'staff' } });
  expect(res.statusCode, res.body).toBe(201);
  return waitFor(async () => received.find((m) => m.to.includes(email)) ?? null, `the mail to ${email}`);
}

describe('the From of the practice’s e-mail', () => {
  it('MAIL_FROM wins; otherwise the practice e-mail and name (settings), never a made-up address', () => {
    const practice = { practiceName: 'Smith, Jones & Co', practiceEmail: 'office@smithjones.co.uk' };
    expect(senderOf({ mailFrom: '', ...practice })).toEqual({ name: 'Smith, Jones & Co', address: 'office@smithjones.co.uk' });
    expect(senderOf({ mailFrom: 'mail@relay.co.uk', ...practice })).toEqual({ name: 'Smith, Jones & Co', address: 'mail@relay.co.uk' });
    expect(senderOf({ mailFrom: '"Jones, Smith" <m@relay.co.uk>', ...practice })).toEqual({
      name: 'Jones, Smith',
      address: 'm@relay.co.uk',
    });
    expect(senderOf({ mailFrom: 'Accounts <a@relay.co.uk>', ...practice })).toEqual({ name: 'Accounts', address: 'a@relay.co.uk' });
  });

  it('sends real SMTP from the practice e-mail of Company Settings, the name quoted per RFC 5322, and follows a change', async () => {
    const first = await invite(app, 'first.invitee@example.co.uk');
    expect(first.from).toBe('office@test-practice.co.uk');
    expect(first.headers.get('from')).toBe('Test Practice <office@test-practice.co.uk>');

    const patch = await app.inject({
      method: 'PATCH',
      url: '/api/settings',
      headers: admin,
      payload: { name: 'Smith, Jones & Co', email: 'office@smithjones.co.uk' },
    });
    expect(patch.statusCode, patch.body).toBe(200);
    // The all-in-one follows settings by event; wait until identity sees the new name.
    const m = await waitFor(async () => {
      const got = await invite(app, `invitee.${received.length}@example.co.uk`);
      return got.from === 'office@smithjones.co.uk' ? got : null;
    }, 'a mail from the new address');
    expect(m.headers.get('from')).toBe('"Smith, Jones & Co" <office@smithjones.co.uk>');
    expect(m.headers.get('to')).toBe(m.to[0]);
    expect(m.headers.get('subject')).toBe("You're invited to join Smith, Jones & Co as staff");
    expect(m.body).toContain("You have been invited to join Smith, Jones & Co's staff portal");
    expect(m.body).toMatch(/https?:\/\/\S+/);
    const { rows } = await kit.runtime.pool.query(`select transport, status from identity.outgoing_mail where "to" = $1`, [m.to[0]]);
    expect(rows).toEqual([{ transport: 'smtp', status: 'sent' }]);
  });

  it('with MAIL_FROM set, mail comes from it', async () => {
    await app.close();
    app = await compose('"Countinghouse, Billing" <billing@relay.example.co.uk>');
    admin = bearer((await login(app)).json().session_token);
    const m = await invite(app, 'mail.from@example.co.uk');
    expect(m.from).toBe('billing@relay.example.co.uk');
    expect(m.headers.get('from')).toBe('"Countinghouse, Billing" <billing@relay.example.co.uk>');
  });
});
