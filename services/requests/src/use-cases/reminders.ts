import { enqueueEvent, type DbOrTx } from '@countinghouse/kit';
import { claimReminder, addActivity, itemsOf, type DirectoryRow, type RequestRow } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import { reminderMail } from '../domain/mail.js';
import { SYSTEM_ACTOR, type RequestsDeps } from './deps.js';
import { isOpenItem } from './views.js';

/**
 * E-mail the client the items still open, claiming the request's reminder for `day` first: false (and
 * nothing sent) when one already went that day or nothing is open. Runs in the caller's transaction,
 * so the claim and the e-mail's event commit together.
 */
export async function sendReminder(deps: RequestsDeps, tx: DbOrTx, request: RequestRow, client: DirectoryRow, day: string, byName: string) {
  const open = (await itemsOf(tx, [request.id])).filter(isOpenItem);
  if (open.length === 0 || request.status !== 'open') return false;
  if (!(await claimReminder(tx, { requestId: request.id, day, sentTo: client.contactEmail, byName }))) return false;
  const mail = reminderMail({
    practiceName: deps.practice().name,
    clientName: client.companyName,
    title: request.title,
    dueOn: request.dueOn,
    today: day,
    openItems: open.map((i) => ({ id: i.id, label: i.label, rejectionReason: i.status === 'rejected' ? i.rejectionReason : null })),
    baseUrl: deps.publicUrl.replace(/\/$/, ''),
  });
  await enqueueEvent(
    tx,
    SCHEMA,
    'requests.reminder_sent',
    { requestId: request.id, clientId: client.clientId, title: request.title, day, to: client.contactEmail, ...mail },
    { actor: SYSTEM_ACTOR, key: client.clientId },
  );
  await addActivity(tx, {
    requestId: request.id,
    action: 'reminder',
    byId: null,
    byName,
    detail: `E-mailed ${client.contactEmail}: ${open.length} item(s) open`,
  });
  return true;
}
