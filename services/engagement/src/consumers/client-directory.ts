import { subscribe, subscribeClientDirectory as subscribeDirectory, type Runtime } from '@countinghouse/kit';
import { adoptProspect, directoryEntry, insertProspect, newestLetter } from '../db/queries.js';
import { PROSPECT_STATUS, prospectId } from '../domain/prospect.js';
import { publishLetterSigned } from '../use-cases/sign-letter.js';
import { clientDirectory, SCHEMA } from '../db/schema.js';
import { letterNeeded } from '../domain/status.js';
import type { EngagementDeps } from '../use-cases/deps.js';
import { issueLetter } from '../use-cases/issue-letter.js';

export const CLIENT_DIRECTORY_CONSUMER = 'engagement.client-directory';
export const PROSPECTS_CONSUMER = 'engagement.prospects';

/**
 * crm.client_upserted → the client directory, and the letter it calls for: a client with a sign-in
 * account and a package gets their first letter; a change of package (an upgrade completed in crm, or
 * a change the client made in billing: both end in this event with the new package) gets a new
 * version. Once per event id, in the transaction that records it.
 */
export async function subscribeClientDirectory(runtime: Runtime, deps: Pick<EngagementDeps, 'practice' | 'now'>): Promise<void> {
  // identity.user_registered → the provisional client whose letter is signed before paying (issue 33).
  await subscribe(runtime, {
    group: PROSPECTS_CONSUMER,
    schema: SCHEMA,
    types: ['identity.user_registered'],
    handler: async (event, tx) => {
      const d = event.data;
      const contactName = [d.firstName?.trim(), d.lastName?.trim()].filter(Boolean).join(' ') || null;
      await insertProspect(tx, {
        clientId: prospectId(d.userId),
        userId: d.userId,
        companyName: d.companyName?.trim() || contactName || d.email,
        contactName,
        contactEmail: d.email.toLowerCase(),
        packageName: null,
        monthlyFee: 0,
        subscriptionStatus: PROSPECT_STATUS,
        businessType: d.businessType ?? null,
        assignedAccountantId: null,
        sourceAt: new Date(event.occurredAt),
      });
    },
  });
  // The kit's client directory consumer, with engagement's own columns; then, whether or not this event
  // was the newest, the letter the row now held calls for.
  await subscribeDirectory(runtime, {
    group: CLIENT_DIRECTORY_CONSUMER,
    schema: SCHEMA,
    table: clientDirectory,
    extra: (d) => ({
      contactName: d.contactName,
      contactEmail: d.contactEmail,
      packageName: d.packageName,
      monthlyFee: d.monthlyFee,
      subscriptionStatus: d.subscriptionStatus,
      businessType: d.businessType ?? null,
      updatedAt: new Date(),
    }),
    then: async (tx, event) => {
      const d = event.data;
      const client = await directoryEntry(tx, d.clientId, { forUpdate: true });
      if (!client) return;
      // Letters accepted before the first payment become this client's (terms before payment, issue 33).
      if (d.userId) {
        const moved = await adoptProspect(tx, prospectId(d.userId), client.clientId);
        for (const letter of moved.filter((l) => l.signedAt)) {
          await publishLetterSigned(tx, letter, { kind: 'user', id: letter.signerUserId });
        }
      }
      const reason = letterNeeded(client, await newestLetter(tx, client.clientId));
      if (reason) await issueLetter(deps, tx, client, reason, { kind: 'system', id: null, name: 'Countinghouse' });
    },
  });
}
