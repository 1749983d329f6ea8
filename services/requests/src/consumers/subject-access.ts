import { enqueueEvent, subscribe, type Runtime } from '@countinghouse/kit';
import { subjectOf } from '@countinghouse/proto';
import { and, asc, eq, or } from 'drizzle-orm';
import { messages, SCHEMA } from '../db/schema.js';

/**
 * records.subject_access_requested (UK GDPR Art. 15, issue 34): the person's secure messages, and the
 * practice's messages to them, in their client's thread.
 */
export async function subscribeSubjectAccess(runtime: Runtime): Promise<void> {
  await subscribe(runtime, {
    group: 'requests.subject-access',
    schema: SCHEMA,
    types: ['records.subject_access_requested'],
    handler: async (event, tx) => {
      const d = event.data;
      const s = subjectOf(d);
      // A client user: their thread (their messages and the practice's to them). A director, PSC or contact
      // who is also a portal user: the messages they wrote. Without a sign-in account: none.
      const rows = s.userId
        ? await tx
            .select()
            .from(messages)
            .where(
              and(
                eq(messages.clientId, d.clientId),
                s.kind === 'client_user'
                  ? or(eq(messages.authorId, s.userId), eq(messages.side, 'practice'))
                  : eq(messages.authorId, s.userId),
              ),
            )
            .orderBy(asc(messages.createdAt))
        : [];
      const list = rows.map((m) => ({
        at: m.createdAt.toISOString(),
        side: m.side,
        author: m.authorName,
        body: m.body,
        attachments: m.attachments.map((a) => a.filename),
      }));
      const files = !s.userId
        ? []
        : [{ path: 'messages.json', base64: Buffer.from(JSON.stringify(list, null, 2), 'utf8').toString('base64') }];
      await enqueueEvent(
        tx,
        SCHEMA,
        'requests.subject_access_part',
        { requestId: d.requestId, files, last: true },
        { actor: event.actor, key: d.requestId },
      );
    },
  });
}
