import { deadlineKindLabel, londonDate } from '@countinghouse/proto';
import { chaseableRequests, deadlinesToOpen, directoryEntry, remindersOf, requestById, templateById } from '../db/queries.js';
import { reminderDue } from '../domain/schedule.js';
import { SYSTEM_ACTOR, type RequestsDeps } from './deps.js';
import { sendReminder } from './reminders.js';
import { openRequest } from './requests.js';

const BATCH = 200;
const SYSTEM = { id: null, name: 'Countinghouse', actor: SYSTEM_ACTOR };

export interface DailyResult {
  opened: number;
  reminded: number;
}

/**
 * The daily run: open a request for each deadline whose template's lead time has begun (once per
 * deadline and due date: a unique index holds it, so a rerun or a second replica opens nothing
 * twice), then chase every open request whose schedule has a reminder due today (one per request and
 * day: the reminders table's key).
 */
export async function runDaily(deps: RequestsDeps, day?: string): Promise<DailyResult> {
  const today = day ?? londonDate(deps.now());
  const result: DailyResult = { opened: 0, reminded: 0 };
  const seen = new Set<string>();
  for (;;) {
    const rows = (await deadlinesToOpen(deps.db, today, BATCH)).filter((r) => !seen.has(`${r.deadline_id}:${r.due_on}`));
    if (rows.length === 0) break;
    for (const d of rows) {
      seen.add(`${d.deadline_id}:${d.due_on}`);
      const opened = await deps.db.transaction(async (tx) => {
        const [client, template] = await Promise.all([directoryEntry(tx, d.client_id), templateById(tx, d.template_id)]);
        if (!client || !template) return null;
        return openRequest(
          deps,
          tx,
          client,
          {
            client_id: client.clientId,
            title: `${template.name}: ${deadlineKindLabel(d.kind)}, ${d.period}`.slice(0, 200),
            due_on: d.due_on,
            template_id: template.id,
            items: template.items,
            deadline_id: d.deadline_id,
            deadline_due_on: d.due_on,
          },
          SYSTEM,
        );
      });
      if (opened) result.opened++;
    }
  }

  for (let after: string | null = null; ;) {
    const rows = await chaseableRequests(deps.db, after, BATCH);
    if (rows.length === 0) break;
    const sent = await remindersOf(
      deps.db,
      rows.map((r) => r.id),
    );
    for (const r of rows) {
      const sentDays = sent.filter((s) => s.requestId === r.id).map((s) => s.day);
      if (!reminderDue({ today, sentOn: r.sentOn, dueOn: r.dueOn, schedule: r.schedule, sentDays })) continue;
      const done = await deps.db.transaction(async (tx) => {
        const request = await requestById(tx, r.id, { forUpdate: true });
        const client = request && (await directoryEntry(tx, request.clientId));
        if (!request || !client) return false;
        return sendReminder(deps, tx, request, client, today, 'Reminder schedule');
      });
      if (done) result.reminded++;
    }
    if (rows.length < BATCH) break;
    after = rows[rows.length - 1]!.id;
  }
  return result;
}
