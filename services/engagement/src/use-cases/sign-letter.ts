import { AppError, canSeeClient, clientScopeOf, enqueueEvent, type DbOrTx, type Principal } from '@countinghouse/kit';
import { ENGAGEMENT_MESSAGES, type Actor, type SignBody, type SignReply, enGbDate } from '@countinghouse/proto';
import { randomUUID } from 'node:crypto';
import { addAudit, directoryEntry, letterById, newestVersionOf, recordSignature, type LetterRow } from '../db/queries.js';
import { isProspect } from '../domain/prospect.js';
import { SCHEMA } from '../db/schema.js';
import { canSign, CLIENT_SCOPE } from '../domain/access.js';
import { cancellationEndsOn } from '../domain/cancellation.js';
import { sha256Hex } from '../domain/letter.js';
import { isPrintable } from '../domain/printable.js';
import { renderSignedLetter } from '../adapters/pdf/render.js';
import type { EngagementDeps, RequestOrigin } from './deps.js';
import { toLetter } from './views.js';

/** The signed PDF's file name in the client's documents. */
export function pdfFilename(version: number, signedOn: string): string {
  return `engagement-letter-v${version}-signed-${signedOn}.pdf`;
}

/** engagement.letter_signed for a signed letter: documents files its PDF, crm and notifications record it. */
export async function publishLetterSigned(tx: DbOrTx, row: LetterRow, actor: Actor): Promise<void> {
  const signedAt = row.signedAt!;
  await enqueueEvent(
    tx,
    SCHEMA,
    'engagement.letter_signed',
    {
      letterId: row.id,
      clientId: row.clientId,
      clientName: row.clientName,
      version: row.version,
      packageName: row.packageName,
      signerName: row.signerName!,
      signedAt: signedAt.toISOString(),
      textSha256: row.textSha256,
      documentId: row.documentId!,
      filename: pdfFilename(row.version, signedAt.toISOString().slice(0, 10)),
      pdfSha256: row.pdfSha256!,
      pdfBase64: row.pdf!.toString('base64'),
      uploadedBy: row.signerUserId,
    },
    { actor, key: row.clientId },
  );
}

/**
 * The client signs the newest version of their letter: the typed name, the agreement, the time, the
 * address and the browser are recorded; the PDF of the exact text with its certificate is made, kept
 * with the letter and sent to documents (engagement.letter_signed) in the same transaction.
 */
export async function signLetter(
  deps: EngagementDeps,
  principal: Principal,
  letterId: string,
  body: SignBody,
  origin: RequestOrigin,
): Promise<SignReply> {
  const name = body.full_name.trim().replace(/\s+/g, ' ');
  if (!name)
    throw new AppError('VALIDATION_FAILED', ENGAGEMENT_MESSAGES.nameRequired, [
      { path: '/full_name', message: ENGAGEMENT_MESSAGES.nameRequired },
    ]);
  if (!isPrintable(name))
    throw new AppError('VALIDATION_FAILED', ENGAGEMENT_MESSAGES.nameNotPrintable, [
      { path: '/full_name', message: ENGAGEMENT_MESSAGES.nameNotPrintable },
    ]);
  if (!body.agree)
    throw new AppError('VALIDATION_FAILED', ENGAGEMENT_MESSAGES.mustAgree, [{ path: '/agree', message: ENGAGEMENT_MESSAGES.mustAgree }]);

  const signed = await deps.db.transaction(async (tx) => {
    const found = await letterById(tx, letterId, { forUpdate: true });
    if (!found) throw new AppError('NOT_FOUND', ENGAGEMENT_MESSAGES.letterNotFound);
    const client = await directoryEntry(tx, found.clientId);
    if (!client || !canSeeClient(clientScopeOf(principal, CLIENT_SCOPE), client))
      throw new AppError('NOT_FOUND', ENGAGEMENT_MESSAGES.letterNotFound);
    if (!canSign(principal, client)) throw new AppError('FORBIDDEN', ENGAGEMENT_MESSAGES.notYours);
    if (found.signedAt) throw new AppError('CONFLICT', ENGAGEMENT_MESSAGES.alreadySigned);
    const newest = await newestVersionOf(tx, found.clientId);
    if (found.version < newest) throw new AppError('CONFLICT', ENGAGEMENT_MESSAGES.superseded);

    const signedAt = deps.now();
    const ends = found.isConsumer ? cancellationEndsOn(signedAt) : null;
    const pdf = Buffer.from(
      await renderSignedLetter(found.text, {
        letterVersion: found.version,
        clientName: found.clientName,
        packageName: found.packageName,
        practiceName: deps.practice().name,
        signerName: name,
        signerEmail: client.contactEmail,
        signedAt,
        ip: origin.ip,
        userAgent: origin.userAgent,
        textSha256: found.textSha256,
        cancellationEndsOn: ends ? enGbDate(ends) : null,
      }),
    );
    const pdfSha256 = sha256Hex(pdf);
    const documentId = randomUUID();
    const row = await recordSignature(tx, found.id, {
      signedAt,
      signerName: name,
      signerEmail: client.contactEmail,
      signerUserId: principal.id,
      signerIp: origin.ip,
      signerUserAgent: origin.userAgent?.slice(0, 500) ?? null,
      pdf,
      pdfSha256,
      documentId,
    });
    if (!row) throw new AppError('CONFLICT', ENGAGEMENT_MESSAGES.alreadySigned);
    await addAudit(tx, {
      letterId: found.id,
      clientId: found.clientId,
      action: 'sign',
      principal: { kind: principal.kind, id: principal.id, name },
      ip: origin.ip,
      userAgent: origin.userAgent,
      detail: `SHA-256 ${found.textSha256}`,
    });
    const actor = { kind: principal.kind, id: principal.id };
    // billing lets this person pay for this package (terms before payment, issue 33).
    await enqueueEvent(
      tx,
      SCHEMA,
      'engagement.terms_accepted',
      {
        letterId: found.id,
        clientId: found.clientId,
        userId: principal.id,
        packageName: found.packageName,
        version: found.version,
        signedAt: signedAt.toISOString(),
      },
      { actor, key: principal.id },
    );
    // A provisional client's letter goes to documents once crm's record exists (consumers/client-directory).
    if (!isProspect(found.clientId)) await publishLetterSigned(tx, row, actor);
    return toLetter(row, newest);
  });
  return { letter: signed, message: ENGAGEMENT_MESSAGES.signed };
}
