import { createTestKit, type TestKit } from '@countinghouse/kit/testing';
import { createServer, type Server } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Mailer } from '../src/adapters/mailer.js';

/**
 * A small SMTP server on loopback speaking RFC 5321's plain dialogue (no TLS, no AUTH): it keeps each
 * message's DATA, or refuses every recipient with 550 when `refuse` is set.
 */
function smtpServer(o: { refuse?: boolean } = {}) {
  const messages: string[] = [];
  const server: Server = createServer((socket) => {
    let buffer = '';
    let data: string[] | null = null;
    socket.write('220 test.local ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let at: number;
      while ((at = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, at);
        buffer = buffer.slice(at + 2);
        if (data) {
          if (line === '.') {
            messages.push(data.join('\n'));
            data = null;
            socket.write('250 2.0.0 queued\r\n');
          } else data.push(line.startsWith('..') ? line.slice(1) : line);
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250 test.local\r\n');
        else if (verb === 'MAIL') socket.write('250 2.1.0 OK\r\n');
        else if (verb === 'RCPT') socket.write(o.refuse ? '550 5.1.1 no such mailbox\r\n' : '250 2.1.5 OK\r\n');
        else if (verb === 'DATA') {
          data = [];
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else if (verb === 'RSET' || verb === 'NOOP') socket.write('250 OK\r\n');
        else socket.write('502 not implemented\r\n');
      }
    });
  });
  return {
    messages,
    async listen(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address();
      if (!address || typeof address === 'string') throw new Error('no port');
      return `smtp://127.0.0.1:${address.port}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let kit: TestKit;
beforeAll(async () => {
  kit = await createTestKit();
});
afterAll(async () => {
  await kit?.close();
});

const logger = pino({ level: 'silent' });
const LINK = 'http://localhost:3000/reset-password?token=secret-token-value';
const message = (to: string) => ({ to, subject: 'Reset your password', text: `Choose a new password here: ${LINK}\nBye.`, secret: LINK });
const logged = async (to: string) =>
  (await kit.runtime.pool.query(`select body, transport, status from identity.outgoing_mail where "to" = $1`, [to])).rows;

describe('outgoing mail', () => {
  it('sent by SMTP: the recipient gets the link; the log keeps the mail without it', async () => {
    const smtp = smtpServer();
    const mailer = new Mailer(kit.runtime.db, logger, await smtp.listen(), () => ({ name: 'Practice', address: 'no-reply@practice.test' }));
    expect(await mailer.send(message('sent@example.co.uk'))).toBe('smtp');
    await mailer.close();
    await smtp.close();
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0]).toContain('secret-token-value');
    const rows = await logged('sent@example.co.uk');
    expect(rows[0]).toMatchObject({ transport: 'smtp', status: 'sent' });
    expect(rows[0].body).not.toContain('secret-token-value');
    expect(rows[0].body).toContain('[link removed from the log');
  });

  it('refused by the SMTP server: recorded as failed, still without the link', async () => {
    const smtp = smtpServer({ refuse: true });
    const mailer = new Mailer(kit.runtime.db, logger, await smtp.listen(), () => ({ name: 'Practice', address: 'no-reply@practice.test' }));
    expect(await mailer.send(message('refused@example.co.uk'))).toBe('failed');
    await mailer.close();
    await smtp.close();
    const rows = await logged('refused@example.co.uk');
    expect(rows[0]).toMatchObject({ transport: 'smtp', status: 'failed' });
    expect(rows[0].body).not.toContain('secret-token-value');
  });

  it('without SMTP the log is the delivery: the link stays for administrators to pass on', async () => {
    const mailer = new Mailer(kit.runtime.db, logger, '', () => ({ name: 'Practice', address: 'no-reply@practice.test' }));
    expect(await mailer.send(message('logged@example.co.uk'))).toBe('log');
    const rows = await logged('logged@example.co.uk');
    expect(rows[0]).toMatchObject({ transport: 'log', status: 'logged' });
    expect(rows[0].body).toContain(LINK);
  });

  it('sendLater: close() waits for mail under way', async () => {
    const smtp = smtpServer();
    const mailer = new Mailer(kit.runtime.db, logger, await smtp.listen(), () => ({ name: 'Practice', address: 'no-reply@practice.test' }));
    mailer.sendLater(message('later@example.co.uk'));
    await mailer.close();
    await smtp.close();
    expect(smtp.messages).toHaveLength(1);
    expect(await logged('later@example.co.uk')).toHaveLength(1);
  });
});
