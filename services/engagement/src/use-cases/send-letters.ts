import { AppError, canSeeClient, clientScopeOf, type Principal } from '@countinghouse/kit';
import { ENGAGEMENT_MESSAGES, type ClientLetters, type SendReply } from '@countinghouse/proto';
import { clientsOnOlderTemplates, currentTemplates, directoryEntry, newestLetter } from '../db/queries.js';
import { CLIENT_SCOPE } from '../domain/access.js';
import type { EngagementDeps } from './deps.js';
import { findClientLetters } from './find-letters.js';
import { issueLetter } from './issue-letter.js';

const actorOf = (p: Principal) => ({ kind: p.kind, id: p.id, name: p.name || p.id });

/** The practice sends a client a new version from the current templates (engagement.send). */
export async function sendClientLetter(
  deps: EngagementDeps,
  principal: Principal,
  clientId: string,
): Promise<{ letters: ClientLetters; message: string }> {
  await deps.db.transaction(async (tx) => {
    const client = await directoryEntry(tx, clientId, { forUpdate: true });
    if (!client || !canSeeClient(clientScopeOf(principal, CLIENT_SCOPE), client))
      throw new AppError('NOT_FOUND', ENGAGEMENT_MESSAGES.clientNotFound);
    if (!client.packageName) throw new AppError('CONFLICT', ENGAGEMENT_MESSAGES.noPackage);
    if (!client.userId) throw new AppError('CONFLICT', ENGAGEMENT_MESSAGES.noAccount);
    const newest = await newestLetter(tx, clientId);
    const templates = await currentTemplates(tx);
    if (
      newest &&
      !newest.signedAt &&
      newest.packageName === client.packageName &&
      newest.templateVersion === templates?.version &&
      Number(newest.monthlyFee) === Number(client.monthlyFee)
    )
      throw new AppError('CONFLICT', ENGAGEMENT_MESSAGES.unchanged);
    await issueLetter(deps, tx, client, 'sent_by_practice', actorOf(principal));
  });
  return { letters: await findClientLetters(deps, principal, clientId), message: ENGAGEMENT_MESSAGES.sentOne };
}

/** Send the current templates to every client whose newest letter was made from older ones. */
export async function sendNewTerms(deps: EngagementDeps, principal: Principal): Promise<SendReply> {
  const templates = await currentTemplates(deps.db);
  if (!templates) return { sent: 0, message: ENGAGEMENT_MESSAGES.sentMany(0) };
  let sent = 0;
  for (const clientId of await clientsOnOlderTemplates(deps.db, templates.version)) {
    const issued = await deps.db.transaction(async (tx) => {
      const client = await directoryEntry(tx, clientId, { forUpdate: true });
      const newest = await newestLetter(tx, clientId);
      // Re-checked under the lock: a letter sent meanwhile already carries the new terms.
      if (!client?.packageName || !client.userId || !newest || newest.templateVersion >= templates.version) return false;
      await issueLetter(deps, tx, client, 'template_changed', actorOf(principal));
      return true;
    });
    if (issued) sent++;
  }
  return { sent, message: ENGAGEMENT_MESSAGES.sentMany(sent) };
}
