import { AppError, canSeeClient, clientScopeOf, type Principal } from '@countinghouse/kit';
import {
  ENGAGEMENT_MESSAGES,
  type LetterAuditList,
  type ClientLetters,
  type EngagementOverview,
  type Letter,
  type LetterStatuses,
  type MyLetters,
} from '@countinghouse/proto';
import {
  addAudit,
  auditOf,
  countAwaiting,
  directoryEntry,
  letterById,
  lettersOf,
  newestPerClient,
  newestVersionOf,
  ownClients,
  type DirectoryRow,
  type LetterRow,
} from '../db/queries.js';
import { CLIENT_SCOPE } from '../domain/access.js';
import { isProspect } from '../domain/prospect.js';
import { clientStatus } from '../domain/status.js';
import type { EngagementDeps, RequestOrigin } from './deps.js';
import { toLetter, toSummary } from './views.js';

const who = (p: Principal) => ({ kind: p.kind, id: p.id, name: p.name || p.id });

/** A client the principal may see, or 404 (never 403: another business's existence is not told). */
export async function visibleClient(deps: EngagementDeps, principal: Principal, clientId: string): Promise<DirectoryRow> {
  const c = await directoryEntry(deps.db, clientId);
  if (!c || !canSeeClient(clientScopeOf(principal, CLIENT_SCOPE), c)) throw new AppError('NOT_FOUND', ENGAGEMENT_MESSAGES.clientNotFound);
  return c;
}

async function visibleLetter(deps: EngagementDeps, principal: Principal, id: string): Promise<{ letter: LetterRow; client: DirectoryRow }> {
  const letter = await letterById(deps.db, id);
  const client = letter ? await directoryEntry(deps.db, letter.clientId) : null;
  if (!letter || !client || !canSeeClient(clientScopeOf(principal, CLIENT_SCOPE), client))
    throw new AppError('NOT_FOUND', ENGAGEMENT_MESSAGES.letterNotFound);
  return { letter, client };
}

function clientLetters(c: DirectoryRow, rows: LetterRow[]): ClientLetters {
  const newest = rows[0] ?? null;
  const v = newest?.version ?? 0;
  return {
    client_id: c.clientId,
    client_name: c.companyName,
    status: clientStatus(newest),
    current: newest ? toSummary(newest, v) : null,
    letters: rows.map((r) => toSummary(r, v)),
  };
}

export async function findClientLetters(deps: EngagementDeps, principal: Principal, clientId: string): Promise<ClientLetters> {
  const c = await visibleClient(deps, principal, clientId);
  return clientLetters(c, await lettersOf(deps.db, clientId));
}

/** The signed-in client's businesses: the letter to sign (with its text) and every version. */
export async function findMyLetters(deps: EngagementDeps, principal: Principal): Promise<MyLetters> {
  const out: MyLetters['clients'] = [];
  for (const c of await ownClients(deps.db, principal.id)) {
    const rows = await lettersOf(deps.db, c.clientId);
    // A sign-up that has not asked for terms yet has nothing to sign (terms before payment, issue 33).
    if (isProspect(c.clientId) && rows.length === 0) continue;
    const base = clientLetters(c, rows);
    const newest = rows[0];
    out.push({
      client_id: base.client_id,
      client_name: base.client_name,
      status: base.status,
      to_sign: newest && !newest.signedAt ? toLetter(newest, newest.version) : null,
      letters: base.letters,
    });
  }
  return { clients: out };
}

/** One letter with its text; opening it is recorded in its audit trail. */
export async function getLetter(deps: EngagementDeps, principal: Principal, id: string, origin: RequestOrigin): Promise<Letter> {
  const { letter } = await visibleLetter(deps, principal, id);
  await addAudit(deps.db, { letterId: letter.id, clientId: letter.clientId, action: 'view', principal: who(principal), ...origin });
  return toLetter(letter, await newestVersionOf(deps.db, letter.clientId));
}

/** The signed PDF exactly as made at signing; the download is recorded. */
export async function downloadSignedPdf(deps: EngagementDeps, principal: Principal, id: string, origin: RequestOrigin) {
  const { letter } = await visibleLetter(deps, principal, id);
  if (!letter.pdf || !letter.signedAt) throw new AppError('NOT_FOUND', ENGAGEMENT_MESSAGES.pdfNotReady);
  await addAudit(deps.db, { letterId: letter.id, clientId: letter.clientId, action: 'download', principal: who(principal), ...origin });
  return { pdf: letter.pdf, version: letter.version, signedOn: letter.signedAt.toISOString().slice(0, 10) };
}

export async function findAudit(deps: EngagementDeps, principal: Principal, id: string): Promise<LetterAuditList> {
  const { letter } = await visibleLetter(deps, principal, id);
  const rows = await auditOf(deps.db, letter.id);
  return {
    entries: rows.map((r) => ({
      action: r.action,
      principal_name: r.principalName,
      principal_kind: r.principalKind,
      ip: r.ip,
      user_agent: r.userAgent,
      detail: r.detail,
      at: r.at.toISOString(),
    })),
  };
}

export async function findStatuses(deps: EngagementDeps, principal: Principal): Promise<LetterStatuses> {
  const rows = await newestPerClient(deps.db, clientScopeOf(principal, CLIENT_SCOPE));
  return {
    statuses: rows.map((r) => {
      const signedAt = r.signed_at ? new Date(r.signed_at) : null;
      return {
        client_id: r.client_id,
        client_name: r.company_name,
        version: r.version,
        status: clientStatus({ version: r.version, signedAt }),
        signed_at: signedAt ? signedAt.toISOString() : null,
      };
    }),
  };
}

export async function getOverview(deps: EngagementDeps): Promise<EngagementOverview> {
  return { awaiting_signature: await countAwaiting(deps.db) };
}
