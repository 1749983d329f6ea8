import { AppError, clientScopeOf, enqueueEvent, isPracticeSide, type Principal } from '@countinghouse/kit';
import type { PostMessageBody, Thread } from '@countinghouse/proto';
import { insertMessage, markRead, readAtOf, threadOf, unreadThreads, type MessageRow } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import { CLIENT_SCOPE } from '../domain/access.js';
import { messageNotice } from '../domain/mail.js';
import type { RequestsDeps } from './deps.js';
import { prepareFile } from './files.js';
import { clientFor } from './requests.js';

const toMessage = (m: MessageRow) => ({
  id: m.id,
  client_id: m.clientId,
  side: m.side,
  author_name: m.authorName,
  body: m.body,
  attachments: m.attachments,
  created_at: m.createdAt.toISOString(),
});

/** The client's one thread with the practice. Reading it marks it read for the reader's side. */
export async function getThread(deps: RequestsDeps, p: Principal, clientId: string, opts: { markRead: boolean }): Promise<Thread> {
  const client = await clientFor(deps.db, p, clientId);
  const side = isPracticeSide(clientScopeOf(p, CLIENT_SCOPE), client) ? 'practice' : 'client';
  const other = side === 'practice' ? 'client' : 'practice';
  const [msgs, readAt] = await Promise.all([threadOf(deps.db, clientId), readAtOf(deps.db, clientId, side)]);
  const unread = msgs.filter((m) => m.side === other && (!readAt || m.createdAt > readAt)).length;
  const last = msgs[msgs.length - 1];
  if (opts.markRead && last && unread > 0) await markRead(deps.db, clientId, side, last.createdAt);
  return { client_id: clientId, client_name: client.companyName, messages: msgs.map(toMessage), unread };
}

/**
 * A message on the client's thread. Attachments are filed as the client's documents (type Other) by
 * the documents service from the event; the other side gets an e-mail saying only that one arrived.
 */
export async function postMessage(deps: RequestsDeps, p: Principal, clientId: string, body: PostMessageBody) {
  const client = await clientFor(deps.db, p, clientId);
  const side = isPracticeSide(clientScopeOf(p, CLIENT_SCOPE), client) ? 'practice' : 'client';
  const text = body.body.trim();
  if (!text) throw new AppError('VALIDATION_FAILED', 'Write a message');
  const files = (body.attachments ?? []).map((f) => prepareFile(f, 'other', `Attached to a secure message from ${p.name}`));
  const notice = messageNotice({
    practiceName: deps.practice().name,
    toClient: side === 'practice',
    clientName: client.companyName,
    baseUrl: deps.publicUrl.replace(/\/$/, ''),
  });
  const m = await deps.db.transaction(async (tx) => {
    const row = await insertMessage(tx, {
      clientId,
      side,
      authorId: p.id,
      authorName: p.name,
      body: text,
      attachments: files.map((f) => ({ document_id: f.documentId, filename: f.filename })),
      createdAt: deps.now(),
    });
    // The writer has read everything up to their own message.
    await markRead(tx, clientId, side, row.createdAt);
    await enqueueEvent(
      tx,
      SCHEMA,
      'requests.message_posted',
      {
        messageId: row.id,
        clientId,
        side,
        authorId: p.id,
        documents: files,
        // To the client's contact address, or to the practice's own address for a client's message.
        notice: { to: side === 'practice' ? client.contactEmail : deps.practice().email, ...notice },
      },
      { actor: { kind: p.kind, id: p.id }, key: clientId },
    );
    return row;
  });
  return toMessage(m);
}

export async function findUnreadThreads(deps: RequestsDeps, p: Principal) {
  return { threads: await unreadThreads(deps.db, clientScopeOf(p, CLIENT_SCOPE)) };
}
