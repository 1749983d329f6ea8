import { enqueueEvent, subscribe, type Runtime } from '@countinghouse/kit';
import { and, eq } from 'drizzle-orm';
import { letters, SCHEMA } from '../db/schema.js';

/** records.subject_access_requested (UK GDPR Art. 15, issue 34): the letters this person signed, PDF and text. */
export async function subscribeSubjectAccess(runtime: Runtime): Promise<void> {
  await subscribe(runtime, {
    group: 'engagement.subject-access',
    schema: SCHEMA,
    types: ['records.subject_access_requested'],
    handler: async (event, tx) => {
      const d = event.data;
      // A person without a sign-in account signed nothing here (a null never matches a letter's signer).
      const rows = d.userId
        ? await tx
            .select()
            .from(letters)
            .where(and(eq(letters.clientId, d.clientId), eq(letters.signerUserId, d.userId)))
        : [];
      const files = rows.flatMap((l) => [
        { path: `letter-v${l.version}.txt`, base64: Buffer.from(l.text, 'utf8').toString('base64') },
        ...(l.pdf ? [{ path: `letter-v${l.version}-signed.pdf`, base64: l.pdf.toString('base64') }] : []),
      ]);
      await enqueueEvent(
        tx,
        SCHEMA,
        'engagement.subject_access_part',
        { requestId: d.requestId, files, last: true },
        { actor: event.actor, key: d.requestId },
      );
    },
  });
}
