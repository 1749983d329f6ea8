import { enqueueEvent, type DbOrTx as Db } from '@countinghouse/kit';
import type { Actor, LetterReason } from '@countinghouse/proto';
import { addAudit, currentTemplates, insertLetter, newestVersionOf, type DirectoryRow, type LetterRow } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import { isConsumer } from '../domain/cancellation.js';
import { londonDate } from '@countinghouse/proto';
import { composeLetter, sha256Hex } from '../domain/letter.js';
import type { EngagementDeps } from './deps.js';

/**
 * Make and send a client's next letter version from the current templates, in the caller's
 * transaction: the letter, its audit line and engagement.letter_sent commit together. The client row
 * must be locked by the caller (directoryEntry forUpdate), so two changes at once number versions in turn.
 */
export async function issueLetter(
  deps: Pick<EngagementDeps, 'practice' | 'now'>,
  tx: Db,
  client: DirectoryRow,
  reason: LetterReason,
  actor: Actor & { name: string },
): Promise<LetterRow> {
  const templates = await currentTemplates(tx);
  if (!templates) throw new Error('engagement: no templates (ensureTemplates runs at start)');
  const now = deps.now();
  const consumer = isConsumer(client.businessType);
  const text = composeLetter(
    templates.templates,
    {
      practice: deps.practice(),
      client: { name: client.companyName, contactName: client.contactName, email: client.contactEmail },
      packageName: client.packageName!,
      monthlyFee: Number(client.monthlyFee),
      startDate: londonDate(now),
    },
    consumer,
  );
  const textSha256 = sha256Hex(text);
  const letter = await insertLetter(tx, {
    clientId: client.clientId,
    version: (await newestVersionOf(tx, client.clientId)) + 1,
    reason,
    templateVersion: templates.version,
    packageName: client.packageName!,
    monthlyFee: Number(client.monthlyFee),
    isConsumer: consumer,
    clientName: client.companyName,
    recipientEmail: client.contactEmail,
    text,
    textSha256,
    sentAt: now,
    sentBy: actor.id,
  });
  await addAudit(tx, {
    letterId: letter.id,
    clientId: client.clientId,
    action: 'send',
    principal: { kind: actor.kind, id: actor.id, name: actor.name },
    detail: `Version ${letter.version} (${reason.replace('_', ' ')})`,
  });
  await enqueueEvent(
    tx,
    SCHEMA,
    'engagement.letter_sent',
    {
      letterId: letter.id,
      clientId: client.clientId,
      clientName: client.companyName,
      version: letter.version,
      packageName: letter.packageName,
      reason,
      textSha256,
    },
    { actor: { kind: actor.kind, id: actor.id }, key: client.clientId },
  );
  return letter;
}
