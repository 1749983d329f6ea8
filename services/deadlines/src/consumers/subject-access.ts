import { enqueueEvent, subscribe, type ConsumerRuntime, type DbOrTx } from '@countinghouse/kit';
import { foldName, subjectOf } from '@countinghouse/proto';
import { eq } from 'drizzle-orm';
import { clientDirectory, identityPeople, identityPracticeVerifications, SCHEMA } from '../db/schema.js';

export const SUBJECT_ACCESS_CONSUMER = 'deadlines.subject-access';

/**
 * What the deadlines service holds about one person, for their subject-access archive (UK GDPR Art. 15,
 * issue 34): their Companies House identity-verification row (a director or PSC of their client: by their
 * key, or by their name compared as foldName does) and the practice's verifications of them as deadlines
 * keeps them; for the client's contact, the contact details it keeps to remind them. Only the one client;
 * a client user must be the client's own sign-in account.
 */
export async function deadlinesSubjectPart(tx: DbOrTx, d: { clientId: string } & Parameters<typeof subjectOf>[0]) {
  const s = subjectOf(d);
  const [client] = await tx.select().from(clientDirectory).where(eq(clientDirectory.clientId, d.clientId));
  if (!client) return [];
  if (s.kind === 'client_user' && (!s.userId || client.userId !== s.userId)) return [];
  const name = foldName(s.personName);
  const people = (await tx.select().from(identityPeople).where(eq(identityPeople.clientId, d.clientId))).filter(
    (p) => (s.kind === 'person' && s.personKey !== null && p.personKey === s.personKey) || (name !== '' && foldName(p.name) === name),
  );
  const keys = new Set(people.map((p) => p.personKey));
  const practice = (
    await tx.select().from(identityPracticeVerifications).where(eq(identityPracticeVerifications.clientId, d.clientId))
  ).filter((v) => keys.has(v.personKey));
  const json = (path: string, v: unknown) => ({ path, base64: Buffer.from(JSON.stringify(v, null, 2), 'utf8').toString('base64') });
  const files = [];
  if (people.length)
    files.push(
      json(
        'identity-verification.json',
        people.map((p) => ({
          name: p.name,
          kind: p.personKind,
          started_on: p.startedOn,
          companies_house_details: p.details,
          verified_on: p.verifiedOn,
          verified_by: p.verifiedBy,
          verified_source: p.verifiedSource,
          due_on: p.dueOn,
          due_source: p.dueSource,
          practice_verifications: practice
            .filter((v) => v.personKey === p.personKey)
            .map((v) => ({ verified_on: v.verifiedOn, by: v.byName, withdrawn_at: v.withdrawnAt?.toISOString() ?? null })),
        })),
      ),
    );
  if (s.kind === 'contact' && (client.contactName || client.contactEmail))
    files.push(json('contact.json', { name: client.contactName, email: client.contactEmail }));
  return files;
}

/** records.subject_access_requested: the deadlines service's part, in one event. */
export async function subscribeSubjectAccess(runtime: ConsumerRuntime): Promise<void> {
  await subscribe(runtime, {
    group: SUBJECT_ACCESS_CONSUMER,
    types: ['records.subject_access_requested'],
    schema: SCHEMA,
    handler: async (event, tx) => {
      const files = await deadlinesSubjectPart(tx, event.data);
      await enqueueEvent(
        tx,
        SCHEMA,
        'deadlines.subject_access_part',
        { requestId: event.data.requestId, files, last: true },
        { actor: event.actor, key: event.data.requestId },
      );
    },
  });
}
