import { errorMessage, type Db } from '@countinghouse/kit';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import { outgoingMail } from '../db/schema.js';
import type { Sender } from '../domain/sender.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /**
   * A one-time link inside `text` (an invitation or password reset). Sent by SMTP, the copy kept in the
   * log has it removed, so the database never holds a usable token; without SMTP the log is how the
   * mail is delivered (administrators read it), so it stays.
   */
  secret?: string;
}

const REMOVED = '[link removed from the log: it was sent by e-mail]';

export type Delivery = 'smtp' | 'log' | 'failed';

/**
 * Sends the practice's e-mail through SMTP when SMTP_URL is set (nodemailer); otherwise keeps it in
 * the outgoing-mail log that admins can read. Every message is recorded either way.
 */
export class Mailer {
  private transport: Transporter | null;
  private readonly pending = new Set<Promise<unknown>>();
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
    const logged = m.secret ? m.text.split(m.secret).join(REMOVED) : m.text;
    try {
      const from = this.from();
      // An address object, not a string: nodemailer quotes the name (RFC 5322) instead of parsing it as a list.
      await this.transport.sendMail({ from: { name: from.name, address: from.address }, to: m.to, subject: m.subject, text: m.text });
      await this.db.insert(outgoingMail).values({ to: m.to, subject: m.subject, body: logged, transport: 'smtp', status: 'sent' });
      return 'smtp';
    } catch (err) {
      this.logger.warn({ err, to: m.to }, 'e-mail could not be sent');
      await this.db.insert(outgoingMail).values({
        to: m.to,
        subject: m.subject,
        body: logged,
        transport: 'smtp',
        status: 'failed',
        error: errorMessage(err).slice(0, 500),
      });
      return 'failed';
    }
  }

  /**
   * Send without making the caller wait (the forgot-password answer must take as long for an unknown
   * e-mail as for a known one). Failures are recorded by send(); close() waits for what is under way.
   */
  sendLater(m: MailMessage): void {
    const p = this.send(m)
      .catch((err: unknown) => this.logger.error({ err, to: m.to }, 'e-mail could not be recorded'))
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
  }

  async close() {
    await Promise.allSettled([...this.pending]);
    this.transport?.close();
  }
}
