import { enqueueEvent } from '@countinghouse/kit';
import { addAudit, awaitingLetters, claimReminder, directoryEntry, letterById, remindersSent } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import { enGbDate, londonDate } from '@countinghouse/proto';
import { reminderDue } from '../domain/reminders.js';
import type { EngagementDeps } from './deps.js';

const SYSTEM = { kind: 'system' as const, id: null };
const BATCH = 200;

export function reminderText(p: { practiceName: string; clientName: string; sentOn: string; url: string; day: number }) {
  return {
    subject: `Reminder: please sign your engagement letter with ${p.practiceName}`,
    text: [
      `Hello,`,
      ``,
      `We sent ${p.clientName}'s engagement letter on ${enGbDate(p.sentOn)} and it is not signed yet. We can start work once it is.`,
      ``,
      `Sign it in your client portal: ${p.url}`,
      ``,
      `If you have any questions about the terms, reply to this e-mail.`,
      ``,
      p.practiceName,
    ].join('\n'),
  };
}

/**
 * The daily chase: every client's newest letter still unsigned gets one e-mail 3 days and one 7 days
 * after it was sent (London dates). A reminder is claimed and its e-mail event written in one
 * transaction, so a rerun or a second replica sends none twice; a signed letter is never chased.
 */
export async function runReminders(deps: EngagementDeps, day?: string): Promise<{ sent: number }> {
  const today = day ?? londonDate(deps.now());
  let sent = 0;
  for (let after: string | null = null; ;) {
    const rows = await awaitingLetters(deps.db, after, BATCH);
    if (rows.length === 0) break;
    for (const r of rows) {
      const sentOn = londonDate(new Date(r.sent_at));
      const due = reminderDue(sentOn, today, await remindersSent(deps.db, r.id));
      if (due === null) continue;
      const done = await deps.db.transaction(async (tx) => {
        const letter = await letterById(tx, r.id, { forUpdate: true });
        if (!letter || letter.signedAt) return false;
        if (!(await claimReminder(tx, r.id, due))) return false;
        const client = await directoryEntry(tx, r.client_id);
        const mail = reminderText({
          practiceName: deps.practice().name,
          clientName: letter.clientName,
          sentOn,
          url: `${deps.publicUrl.replace(/\/$/, '')}/client/dashboard`,
          day: due,
        });
        const to = client?.contactEmail ?? letter.recipientEmail;
        await enqueueEvent(
          tx,
          SCHEMA,
          'engagement.letter_reminder',
          { letterId: r.id, clientId: r.client_id, day: due, to, ...mail },
          { actor: SYSTEM, key: r.client_id },
        );
        await addAudit(tx, {
          letterId: r.id,
          clientId: r.client_id,
          action: 'reminder',
          principal: { kind: 'system', id: null, name: 'Reminder job' },
          detail: `Day ${due} reminder e-mailed to ${to}`,
        });
        return true;
      });
      if (done) sent++;
    }
    if (rows.length < BATCH) break;
    after = rows[rows.length - 1]!.id;
  }
  return { sent };
}
