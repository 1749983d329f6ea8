import type { Db } from '@countinghouse/kit';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import { outgoingMail } from './db/schema.js';
import type { Sender } from './domain/sender.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export type Delivery = 'smtp' | 'log' | 'failed';

/**
 * Sends the practice's e-mail through SMTP when SMTP_URL is set (nodemailer); otherwise keeps it in
 * the outgoing-mail log that admins can read. Every message is recorded either way.
 */
export class Mailer {
  private transport: Transporter | null;
  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    smtpUrl: string,
    /** Read at every send, so a change of the practice's name or e-mail in settings applies at once. */
    private readonly from: () => Sender,
  ) {
    this.transport = smtpUrl ? nodemailer.createTransport(smtpUrl) : null;
  }

  get configured(): boolean {
    return this.transport !== null;
  }

  async send(m: MailMessage): Promise<Delivery> {
    if (!this.transport) {
      await this.db.insert(outgoingMail).values({ to: m.to, subject: m.subject, body: m.text, transport: 'log', status: 'logged' });
      return 'log';
    }
    try {
      const from = this.from();
      // An address object, not a string: nodemailer quotes the name (RFC 5322) instead of parsing it as a list.
      await this.transport.sendMail({ from: { name: from.name, address: from.address }, to: m.to, subject: m.subject, text: m.text });
      await this.db.insert(outgoingMail).values({ to: m.to, subject: m.subject, body: m.text, transport: 'smtp', status: 'sent' });
      return 'smtp';
    } catch (err) {
      this.logger.warn({ err, to: m.to }, 'e-mail could not be sent');
      await this.db.insert(outgoingMail).values({
        to: m.to,
        subject: m.subject,
        body: m.text,
        transport: 'smtp',
        status: 'failed',
        error: String((err as Error)?.message ?? err).slice(0, 500),
      });
      return 'failed';
    }
  }

  close() {
    this.transport?.close();
  }
}
