import { AppError, enqueueEvent, type Db, type Principal } from '@countinghouse/kit';
import {
  canSeeClient,
  clientVisibility,
  hasPermission,
  MTD_EXPENSE_CATEGORIES,
  MTD_PROPERTY_EXPENSES,
  MTD_PROPERTY_INCOME,
  MTD_TEXTS,
  WORKSPACE_MESSAGES,
  type MtdAgentType,
  type MtdAuthorisation,
  type MtdCalculationSummary,
  type MtdClient,
  type MtdConnection,
  type MtdOverview,
  type MtdPropertyFigures,
  type MtdUpdateFigures,
} from '@countinghouse/proto';
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { HmrcSettings } from '../config.js';
import {
  findConnection,
  findMtdClient,
  findAuthorisation,
  insertAuthorisation,
  insertCalculation,
  insertIncome,
  insertSubmission,
  latestAuthorisation,
  listAuthorisations,
  listBusinesses,
  listDirectory,
  listIncomes,
  listMtdClients,
  listFinalDeclarations,
  insertFinalDeclaration,
  findCalculation,
  listObligations,
  listSubmissions,
  lockConnection,
  recordHmrcCall,
  replaceBusinesses,
  replaceObligations,
  saveConnection,
  saveMtdClient,
  spendHmrcState,
  updateAuthorisation,
  type MtdAuthorisationRow,
  type MtdObligationRow,
} from '../db/mtd-queries.js';
import { findDirectoryEntry, insertState, type DirectoryRow } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import {
  authorisationExpiry,
  isOverdue,
  isTaxYear,
  londonDate,
  mtdScope,
  quarterLabel,
  taxYearOf,
  taxYearEnd,
  taxYearStart,
} from '../domain/mtd-rules.js';
import { randomSecret, sha256, type TokenCipher } from '../domain/token-cipher.js';
import { HmrcError, hmrcClient, type HmrcClient } from '../adapters/hmrc.js';

/** What the MTD use cases are handed (built once by the plugin or a test). */
export interface MtdDeps {
  db: Db;
  logger: Logger;
  cipher: TokenCipher;
  settings: HmrcSettings;
  hmrc: HmrcClient;
  now: () => Date;
}

export function mtdDeps(o: Omit<MtdDeps, 'hmrc' | 'now'> & { now?: () => Date }): MtdDeps {
  return {
    ...o,
    now: o.now ?? (() => new Date()),
    hmrc: hmrcClient(o.settings, o.logger, (r) => recordHmrcCall(o.db, r)),
  };
}

const GRANT_CONTEXT = (part: string) => `hmrc:practice:${part}`;
const HMRC_STATE_PROVIDER = 'hmrc';

// --- who may ---------------------------------------------------------------------------------------

/** The client's directory entry, when the caller may see them (clientVisibility / canSeeClient). */
export async function requireMtdClient(deps: MtdDeps, p: Principal, clientId: string): Promise<DirectoryRow> {
  const entry = await findDirectoryEntry(deps.db, clientId);
  if (!entry) throw new AppError('NOT_FOUND', WORKSPACE_MESSAGES.clientNotFound);
  if (!canSeeClient(clientVisibility(p), entry.assignedAccountantId)) throw new AppError('FORBIDDEN', WORKSPACE_MESSAGES.notYourClient);
  return entry;
}

function requireSubmitter(p: Principal) {
  if (p.kind !== 'admin' && !hasPermission(p.roles, 'mtd.submit'))
    throw new AppError('FORBIDDEN', 'Sending updates to HMRC needs the "Send quarterly updates to HMRC" permission.');
}

// --- connection ------------------------------------------------------------------------------------

export async function getMtdConnection(deps: MtdDeps): Promise<MtdConnection> {
  const c = await findConnection(deps.db);
  return {
    configured: deps.settings.configured,
    connected: Boolean(c?.refreshTokenEnc) && !c?.needsReconnect,
    needsReconnect: c?.needsReconnect ?? false,
    arn: c?.arn ?? null,
    connectedAt: c?.connectedAt?.toISOString() ?? null,
  };
}

export async function setArn(deps: MtdDeps, arn: string): Promise<MtdConnection> {
  await saveConnection(deps.db, { arn });
  return getMtdConnection(deps);
}

function requireConfigured(deps: MtdDeps) {
  if (!deps.settings.configured) throw new AppError('NOT_CONFIGURED', MTD_TEXTS.notConfigured);
}

/** The consent page of HMRC for the practice's agent user; the state binds the person, single use, ten minutes. */
export async function startHmrcConnection(deps: MtdDeps, p: Principal): Promise<string> {
  requireConfigured(deps);
  const state = randomSecret();
  await insertState(deps.db, {
    stateHash: sha256(state),
    provider: HMRC_STATE_PROVIDER,
    userId: p.id,
    clientId: 'practice',
    expiresAt: new Date(deps.now().getTime() + 10 * 60_000),
  });
  return deps.hmrc.authorizeUrl(state);
}

export async function completeHmrcConnection(
  deps: MtdDeps,
  q: { code?: string; state?: string; error?: string },
): Promise<'connected' | 'error'> {
  if (!deps.settings.configured || !q.state) return 'error';
  const st = await spendHmrcState(deps.db, sha256(q.state));
  if (!st || q.error || !q.code) return 'error';
  try {
    const t = await deps.hmrc.exchangeCode(q.code);
    await saveConnection(deps.db, {
      accessTokenEnc: deps.cipher.encrypt(t.accessToken, GRANT_CONTEXT('access')),
      refreshTokenEnc: deps.cipher.encrypt(t.refreshToken, GRANT_CONTEXT('refresh')),
      accessExpiresAt: new Date(deps.now().getTime() + t.expiresIn * 1000),
      scope: t.scope,
      needsReconnect: false,
      connectedBy: st.userId,
      connectedAt: deps.now(),
    });
    return 'connected';
  } catch (err) {
    deps.logger.warn({ reason: err instanceof HmrcError ? err.message : 'error' }, 'mtd: HMRC connection failed');
    return 'error';
  }
}

/** A usable access token: refreshed (in a locked transaction) when it ends within five minutes. */
async function accessToken(deps: MtdDeps): Promise<{ token: string; arn: string | null }> {
  requireConfigured(deps);
  const c = await findConnection(deps.db);
  if (!c?.refreshTokenEnc || !c.accessTokenEnc) throw new AppError('CONFLICT', MTD_TEXTS.notConnected);
  if (c.needsReconnect) throw new AppError('CONFLICT', MTD_TEXTS.needsReconnect);
  if (c.accessExpiresAt && c.accessExpiresAt.getTime() - deps.now().getTime() > 5 * 60_000) {
    return { token: deps.cipher.decrypt(c.accessTokenEnc, GRANT_CONTEXT('access')), arn: c.arn };
  }
  const result = await deps.db.transaction(async (tx) => {
    const locked = await lockConnection(tx);
    if (!locked?.refreshTokenEnc) return { refused: false as const, token: null, arn: null };
    if (locked.accessTokenEnc && locked.accessExpiresAt && locked.accessExpiresAt.getTime() - deps.now().getTime() > 5 * 60_000) {
      return { refused: false as const, token: deps.cipher.decrypt(locked.accessTokenEnc, GRANT_CONTEXT('access')), arn: locked.arn };
    }
    try {
      const t = await deps.hmrc.refresh(deps.cipher.decrypt(locked.refreshTokenEnc, GRANT_CONTEXT('refresh')));
      await saveConnection(tx, {
        accessTokenEnc: deps.cipher.encrypt(t.accessToken, GRANT_CONTEXT('access')),
        refreshTokenEnc: deps.cipher.encrypt(t.refreshToken, GRANT_CONTEXT('refresh')),
        accessExpiresAt: new Date(deps.now().getTime() + t.expiresIn * 1000),
        scope: t.scope,
      });
      return { refused: false as const, token: t.accessToken, arn: locked.arn };
    } catch (err) {
      if (err instanceof HmrcError && err.failure === 'invalid_grant') {
        // Marked in this transaction, which commits: HMRC refused the grant; a person must reconnect.
        await saveConnection(tx, { needsReconnect: true });
        return { refused: true as const, token: null, arn: null };
      }
      throw toAppError(err);
    }
  });
  if (result.refused) throw new AppError('CONFLICT', MTD_TEXTS.needsReconnect);
  if (!result.token) throw new AppError('CONFLICT', MTD_TEXTS.notConnected);
  return { token: result.token, arn: result.arn };
}

async function markNeedsReconnect(deps: MtdDeps) {
  await saveConnection(deps.db, { needsReconnect: true });
}

function toAppError(err: unknown): unknown {
  if (!(err instanceof HmrcError)) return err;
  if (err.failure === 'unavailable') return new AppError('UPSTREAM_UNAVAILABLE', MTD_TEXTS.hmrcUnavailable);
  if (err.failure === 'not_found') return new AppError('NOT_FOUND', MTD_TEXTS.hmrcRefused(err.status ?? 404));
  return new AppError('CONFLICT', MTD_TEXTS.hmrcRefused(err.status ?? 400));
}

/** Run HMRC calls; a 401 from HMRC marks the connection for "reconnect". */
async function withHmrc<T>(deps: MtdDeps, fn: (token: string, arn: string | null) => Promise<T>): Promise<T> {
  const { token, arn } = await accessToken(deps);
  try {
    return await fn(token, arn);
  } catch (err) {
    if (err instanceof HmrcError && err.failure === 'unauthorized') {
      await markNeedsReconnect(deps);
      throw new AppError('CONFLICT', MTD_TEXTS.needsReconnect);
    }
    throw toAppError(err);
  }
}

function requireArn(arn: string | null): string {
  if (!arn) throw new AppError('CONFLICT', MTD_TEXTS.noArn);
  return arn;
}

// --- client identifiers, income, exemption -----------------------------------------------------------

export async function setMtdIdentifiers(deps: MtdDeps, p: Principal, clientId: string, input: { nino: string; postcode: string }) {
  await requireMtdClient(deps, p, clientId);
  await saveMtdClient(deps.db, clientId, {
    nino: input.nino.toUpperCase(),
    postcode: input.postcode.toUpperCase().replace(/\s+/g, ' ').trim(),
    updatedBy: p.id,
  });
}

export async function recordQualifyingIncome(deps: MtdDeps, p: Principal, clientId: string, input: { taxYear: string; amount: number }) {
  await requireMtdClient(deps, p, clientId);
  if (!isTaxYear(input.taxYear)) throw new AppError('VALIDATION_FAILED', 'Tax year must be like 2025-26');
  await insertIncome(deps.db, { clientId, taxYear: input.taxYear, amountPence: Math.round(input.amount * 100), recordedBy: p.id });
}

export async function setExemption(deps: MtdDeps, p: Principal, clientId: string, reason: string | null) {
  await requireMtdClient(deps, p, clientId);
  await saveMtdClient(deps.db, clientId, { exemptionReason: reason, updatedBy: p.id });
}

function incomesByClient(rows: Awaited<ReturnType<typeof listIncomes>>) {
  const m = new Map<string, Record<string, number>>();
  for (const r of rows) (m.get(r.clientId) ?? m.set(r.clientId, {}).get(r.clientId)!)[r.taxYear] = r.amountPence;
  return m;
}

// --- authorisation ---------------------------------------------------------------------------------

function toAuthorisation(r: MtdAuthorisationRow): MtdAuthorisation {
  return {
    id: r.id,
    clientId: r.clientId,
    agentType: r.agentType,
    invitationId: r.invitationId,
    status: r.status,
    clientActionUrl: r.clientActionUrl,
    expiresOn: r.expiresOn,
    requestedAt: r.requestedAt.toISOString(),
    checkedAt: r.checkedAt?.toISOString() ?? null,
  };
}

async function requireIdentifiers(deps: MtdDeps, clientId: string) {
  const c = await findMtdClient(deps.db, clientId);
  if (!c?.nino || !c.postcode) throw new AppError('CONFLICT', MTD_TEXTS.noIdentifiers);
  return { nino: c.nino, postcode: c.postcode };
}

/** Agent Authorisation API 2.0: POST /agents/{arn}/invitations -> 204 + Location; Pending for 21 days. */
export async function requestAuthorisation(deps: MtdDeps, p: Principal, clientId: string, agentType: MtdAgentType) {
  await requireMtdClient(deps, p, clientId);
  const ids = await requireIdentifiers(deps, clientId);
  const answer = await withHmrc(deps, (token, arn) =>
    deps.hmrc.call({
      step: 'authorisation request',
      method: 'POST',
      path: `/agents/${requireArn(arn)}/invitations`,
      version: '2.0',
      accessToken: token,
      clientId,
      body: { service: 'MTD-IT', clientType: 'personal', clientIdType: 'ni', clientId: ids.nino, knownFact: ids.postcode, agentType },
    }),
  );
  const invitationId = answer.location?.split('/').filter(Boolean).pop();
  if (!invitationId) throw new AppError('UPSTREAM_UNAVAILABLE', MTD_TEXTS.hmrcUnavailable);
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const row = await insertAuthorisation(tx, {
      clientId,
      agentType,
      invitationId,
      status: 'Pending',
      expiresOn: authorisationExpiry(now),
      requestedBy: p.id,
      requestedAt: now,
    });
    await enqueueEvent(
      tx,
      SCHEMA,
      'integrations.mtd_authorisation_changed',
      { clientId, authorisationId: row.id, status: row.status, expiresOn: row.expiresOn },
      { actor: { kind: p.kind, id: p.id }, key: clientId },
    );
    return toAuthorisation(row);
  });
}

async function loadAuthorisation(deps: MtdDeps, clientId: string, id: string) {
  const row = await findAuthorisation(deps.db, clientId, id);
  if (!row) throw new AppError('NOT_FOUND', MTD_TEXTS.authorisationNotFound);
  return row;
}

/** GET /agents/{arn}/invitations/{id}: HMRC's status and the client's action link. */
export async function checkAuthorisation(deps: MtdDeps, p: Principal, clientId: string, id: string) {
  await requireMtdClient(deps, p, clientId);
  const row = await loadAuthorisation(deps, clientId, id);
  const answer = await withHmrc(deps, (token, arn) =>
    deps.hmrc.call<{ status?: unknown; clientActionUrl?: unknown; expiresOn?: unknown }>({
      step: 'authorisation status',
      method: 'GET',
      path: `/agents/${requireArn(arn)}/invitations/${encodeURIComponent(row.invitationId)}`,
      version: '2.0',
      accessToken: token,
      clientId,
    }),
  );
  const b = answer.body ?? {};
  const status = typeof b.status === 'string' && /^[A-Za-z]{2,30}$/.test(b.status) ? b.status : row.status;
  // HMRC's expiry wins when it is a date on or after the request (a static mock answers a fixed 2019 example).
  const hmrcExpiry = typeof b.expiresOn === 'string' ? b.expiresOn.slice(0, 10) : '';
  const expiresOn = /^\d{4}-\d{2}-\d{2}$/.test(hmrcExpiry) && hmrcExpiry >= londonDate(row.requestedAt) ? hmrcExpiry : row.expiresOn;
  const clientActionUrl =
    typeof b.clientActionUrl === 'string' && b.clientActionUrl.startsWith('https://') ? b.clientActionUrl : row.clientActionUrl;
  return deps.db.transaction(async (tx) => {
    const updated = await updateAuthorisation(tx, row.id, { status, clientActionUrl, expiresOn, checkedAt: deps.now() });
    if (updated.status !== row.status)
      await enqueueEvent(
        tx,
        SCHEMA,
        'integrations.mtd_authorisation_changed',
        { clientId, authorisationId: row.id, status: updated.status, expiresOn: updated.expiresOn },
        { actor: { kind: p.kind, id: p.id }, key: clientId },
      );
    return toAuthorisation(updated);
  });
}

/**
 * The daily job: every Pending request read back from HMRC (the Agent Authorisation API needs no fraud
 * prevention headers). Offline or not connected: nothing to do. One failure does not stop the others.
 */
export async function checkPendingAuthorisations(deps: MtdDeps): Promise<{ checked: number; changed: number }> {
  const conn = await getMtdConnection(deps);
  if (!deps.settings.configured || !conn.connected || !conn.arn) return { checked: 0, changed: 0 };
  const system: Principal = {
    kind: 'admin',
    id: 'system',
    sessionId: '',
    roles: ['admin'],
    name: 'Daily check',
    issuedAt: 0,
    expiresAt: 0,
  };
  let checked = 0;
  let changed = 0;
  for (const a of (await listAuthorisations(deps.db)).filter((x) => x.status === 'Pending')) {
    try {
      const after = await checkAuthorisation(deps, system, a.clientId, a.id);
      checked++;
      if (after.status !== a.status) changed++;
    } catch (err) {
      deps.logger.warn({ reason: err instanceof Error ? err.message : 'error' }, 'mtd: daily authorisation check failed');
      if (err instanceof AppError && err.message === MTD_TEXTS.needsReconnect) break;
    }
  }
  return { checked, changed };
}

/** DELETE /agents/{arn}/invitations/{id}: only while Pending. */
export async function cancelAuthorisation(deps: MtdDeps, p: Principal, clientId: string, id: string) {
  await requireMtdClient(deps, p, clientId);
  const row = await loadAuthorisation(deps, clientId, id);
  if (row.status !== 'Pending') throw new AppError('CONFLICT', MTD_TEXTS.cannotCancel);
  await withHmrc(deps, (token, arn) =>
    deps.hmrc.call({
      step: 'authorisation cancel',
      method: 'DELETE',
      path: `/agents/${requireArn(arn)}/invitations/${encodeURIComponent(row.invitationId)}`,
      version: '2.0',
      accessToken: token,
      clientId,
    }),
  );
  return deps.db.transaction(async (tx) => {
    const updated = await updateAuthorisation(tx, row.id, { status: 'Cancelled', checkedAt: deps.now() });
    await enqueueEvent(
      tx,
      SCHEMA,
      'integrations.mtd_authorisation_changed',
      { clientId, authorisationId: row.id, status: 'Cancelled', expiresOn: updated.expiresOn },
      { actor: { kind: p.kind, id: p.id }, key: clientId },
    );
    return toAuthorisation(updated);
  });
}

/** POST /agents/{arn}/relationships: 204 active, 404 not (RELATIONSHIP_NOT_FOUND). */
export async function checkRelationship(deps: MtdDeps, p: Principal, clientId: string) {
  await requireMtdClient(deps, p, clientId);
  const ids = await requireIdentifiers(deps, clientId);
  const last = await latestAuthorisation(deps.db, clientId);
  const answer = await withHmrc(deps, (token, arn) =>
    deps.hmrc.call({
      step: 'relationship check',
      method: 'POST',
      path: `/agents/${requireArn(arn)}/relationships`,
      version: '2.0',
      accessToken: token,
      clientId,
      accept: [404],
      body: { service: 'MTD-IT', clientIdType: 'ni', clientId: ids.nino, knownFact: ids.postcode, agentType: last?.agentType ?? 'main' },
    }),
  );
  return { active: answer.status === 204 };
}

// --- obligations -----------------------------------------------------------------------------------

interface HmrcObligationDetail {
  periodStartDate?: string;
  periodEndDate?: string;
  dueDate?: string;
  status?: string;
  receivedDate?: string;
}

const isDate = (v: unknown): v is string => typeof v === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(v);

/**
 * Business Details 2.0 (list) and Obligations 3.0 (income and expenditure; final declaration) for an
 * authorised client; the stored list is replaced and published for deadlines.
 */
export async function refreshObligations(deps: MtdDeps, p: Principal | null, clientId: string, fraudHeaders: Record<string, string>) {
  if (p) await requireMtdClient(deps, p, clientId);
  const ids = await requireIdentifiers(deps, clientId);
  const auth = await latestAuthorisation(deps.db, clientId);
  if (auth?.status !== 'Accepted') throw new AppError('CONFLICT', MTD_TEXTS.notAuthorised);
  const now = deps.now();
  const taxYear = taxYearOf(londonDate(now));
  const { businesses, quarterly, finals } = await withHmrc(deps, async (token) => {
    const common = { accessToken: token, clientId, fraudHeaders };
    const list = await deps.hmrc.call<{ listOfBusinesses?: Array<{ businessId?: string; typeOfBusiness?: string; tradingName?: string }> }>(
      {
        ...common,
        step: 'business list',
        method: 'GET',
        path: `/individuals/business/details/${ids.nino}/list`,
        version: '2.0',
      },
    );
    const ie = await deps.hmrc.call<{
      obligations?: Array<{ typeOfBusiness?: string; businessId?: string; obligationDetails?: HmrcObligationDetail[] }>;
    }>({ ...common, step: 'obligations', method: 'GET', path: `/obligations/details/${ids.nino}/income-and-expenditure`, version: '3.0' });
    const fd = await deps.hmrc.call<{ obligations?: HmrcObligationDetail[] }>({
      ...common,
      step: 'final declaration obligations',
      method: 'GET',
      path: `/obligations/details/${ids.nino}/crystallisation?taxYear=${taxYear}`,
      version: '3.0',
    });
    return { businesses: list.body?.listOfBusinesses ?? [], quarterly: ie.body?.obligations ?? [], finals: fd.body?.obligations ?? [] };
  });
  const rows: Array<Omit<MtdObligationRow, 'id'>> = [];
  for (const b of quarterly)
    for (const d of b.obligationDetails ?? [])
      if (isDate(d.periodStartDate) && isDate(d.periodEndDate) && isDate(d.dueDate))
        rows.push({
          clientId,
          kind: 'quarterly',
          businessId: b.businessId ?? null,
          typeOfBusiness: b.typeOfBusiness ?? null,
          periodStartDate: d.periodStartDate,
          periodEndDate: d.periodEndDate,
          dueDate: d.dueDate,
          status: d.status === 'fulfilled' ? 'fulfilled' : 'open',
          receivedDate: isDate(d.receivedDate) ? d.receivedDate : null,
          refreshedAt: now,
        });
  for (const d of finals)
    if (isDate(d.periodStartDate) && isDate(d.periodEndDate) && isDate(d.dueDate))
      rows.push({
        clientId,
        kind: 'final_declaration',
        businessId: null,
        typeOfBusiness: null,
        periodStartDate: d.periodStartDate,
        periodEndDate: d.periodEndDate,
        dueDate: d.dueDate,
        status: d.status === 'fulfilled' ? 'fulfilled' : 'open',
        receivedDate: isDate(d.receivedDate) ? d.receivedDate : null,
        refreshedAt: now,
      });
  await deps.db.transaction(async (tx) => {
    await replaceBusinesses(
      tx,
      clientId,
      businesses
        .filter((b) => b.businessId && b.typeOfBusiness)
        .map((b) => ({
          clientId,
          businessId: b.businessId!,
          typeOfBusiness: b.typeOfBusiness!,
          tradingName: b.tradingName ?? null,
          refreshedAt: now,
        })),
    );
    await replaceObligations(tx, clientId, rows);
    await saveMtdClient(tx, clientId, { obligationsRefreshedAt: now });
    await enqueueEvent(
      tx,
      SCHEMA,
      'integrations.mtd_obligations_updated',
      {
        clientId,
        refreshedAt: now.toISOString(),
        obligations: rows.map((r) => ({
          kind: r.kind,
          businessId: r.businessId,
          periodStartDate: r.periodStartDate,
          periodEndDate: r.periodEndDate,
          dueDate: r.dueDate,
          status: r.status,
          receivedDate: r.receivedDate,
        })),
      },
      { actor: p ? { kind: p.kind, id: p.id } : { kind: 'system', id: null }, key: clientId },
    );
  });
  return rows.length;
}

/** How often a client's obligations are read again from HMRC when staff open MTD (issue 31: daily). */
export const OBLIGATIONS_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** Clients read per request: three HMRC calls each, so a request stays short; the page asks again for the rest. */
export const OBLIGATIONS_BATCH = 5;

/**
 * The daily refresh of obligations (issue 31, item 5), made from a person's browser: HMRC's Income Tax
 * APIs take fraud prevention headers of the person at the device (WEB_APP_VIA_SERVER, decision 436), so
 * no scheduled job calls them. When someone with the MTD permission opens the MTD page it reads, a batch
 * at a time, every authorised client they may see whose obligations are a day old or were never read,
 * the oldest first. A client HMRC refuses is counted and passed over; a practice-wide refusal (not
 * connected, reconnect, HMRC down) stops the round.
 */
export async function refreshDueObligations(deps: MtdDeps, p: Principal, fraudHeaders: Record<string, string>) {
  const visible = new Set((await visibleDirectory(deps, p)).map((d) => d.clientId));
  const [clients, auths] = await Promise.all([listMtdClients(deps.db), listAuthorisations(deps.db)]);
  const lastAuth = new Map<string, MtdAuthorisationRow>();
  for (const a of auths) lastAuth.set(a.clientId, a);
  const staleBefore = deps.now().getTime() - OBLIGATIONS_MAX_AGE_MS;
  const due = clients
    .filter(
      (c) =>
        visible.has(c.clientId) &&
        c.nino &&
        c.postcode &&
        lastAuth.get(c.clientId)?.status === 'Accepted' &&
        (c.obligationsRefreshedAt?.getTime() ?? 0) < staleBefore,
    )
    .sort((a, b) => (a.obligationsRefreshedAt?.getTime() ?? 0) - (b.obligationsRefreshedAt?.getTime() ?? 0));
  const batch = due.slice(0, OBLIGATIONS_BATCH);
  let refreshed = 0;
  const failed: string[] = [];
  for (const c of batch) {
    try {
      await refreshObligations(deps, p, c.clientId, fraudHeaders);
      refreshed++;
    } catch (err) {
      // HMRC refused this client's request (a 4xx of its own, toAppError): the others still get theirs.
      if (err instanceof AppError && (err.code === 'NOT_FOUND' || err.code === 'CONFLICT') && err.message.startsWith('HMRC refused')) {
        failed.push(c.clientId);
        // counted as read for today, so one client HMRC refuses does not hold up the rest every time
        await saveMtdClient(deps.db, c.clientId, { obligationsRefreshedAt: deps.now() });
        continue;
      }
      throw err;
    }
  }
  return { refreshed, failed: failed.length, remaining: due.length - batch.length };
}

// --- quarterly cumulative update -----------------------------------------------------------------------

/** Exactly what Self Employment Business 5.0 receives: every income and expense field, zero when not entered. */
export function cumulativeBody(f: Omit<MtdUpdateFigures, 'device'>) {
  const expenses: Record<string, number> = {};
  for (const c of MTD_EXPENSE_CATEGORIES) expenses[c] = Math.round((f.expenses[c] ?? 0) * 100) / 100;
  return {
    periodDates: { periodStartDate: taxYearStart(f.taxYear), periodEndDate: f.periodEndDate },
    periodIncome: { turnover: Math.round(f.turnover * 100) / 100, other: Math.round(f.other * 100) / 100 },
    periodExpenses: expenses,
  };
}

/** The property figures' body for Property Business 6.0 (UK property cumulative summary): every field, zero when not entered. */
export function propertyCumulativeBody(f: Omit<MtdPropertyFigures, 'device'>) {
  const pounds = (n: number | undefined) => Math.round((n ?? 0) * 100) / 100;
  const { rentARoomRentsReceived, ...income } = f.income;
  const { rentARoomAmountClaimed, ...expenses } = f.expenses;
  const incomeOut: Record<string, unknown> = {};
  for (const c of MTD_PROPERTY_INCOME) if (c !== 'rentARoomRentsReceived') incomeOut[c] = pounds(income[c]);
  const expensesOut: Record<string, unknown> = {};
  for (const c of MTD_PROPERTY_EXPENSES) if (c !== 'rentARoomAmountClaimed') expensesOut[c] = pounds(expenses[c]);
  // Rent-a-room only when claimed: sending it would say the client lets a room in their home.
  if (rentARoomRentsReceived) incomeOut.rentARoom = { rentsReceived: pounds(rentARoomRentsReceived) };
  if (rentARoomAmountClaimed) expensesOut.rentARoom = { amountClaimed: pounds(rentARoomAmountClaimed) };
  return { fromDate: taxYearStart(f.taxYear), toDate: f.periodEndDate, ukProperty: { income: incomeOut, expenses: expensesOut } };
}

/** What a cumulative update sends, where, to which API version, and the hash a submission must repeat. */
interface PreparedUpdate {
  kind: 'self-employment' | 'uk-property';
  path: string;
  version: string;
  body: object;
  periodStartDate: string;
  periodEndDate: string;
  reviewHash: string;
}

function checkPeriod(f: { taxYear: string; periodEndDate: string }) {
  if (!isTaxYear(f.taxYear) || f.taxYear < '2025-26') throw new AppError('VALIDATION_FAILED', 'Cumulative updates are for 2025-26 onwards');
  if (taxYearOf(f.periodEndDate) !== f.taxYear) throw new AppError('VALIDATION_FAILED', `The period must end within ${f.taxYear}`);
}

const hashOf = (path: string, body: object) => createHash('sha256').update(JSON.stringify({ path, body })).digest('hex');

function prepareSelfEmployment(nino: string, f: Omit<MtdUpdateFigures, 'device'>): PreparedUpdate {
  checkPeriod(f);
  const body = cumulativeBody(f);
  const path = `/individuals/business/self-employment/${nino}/${f.businessId}/cumulative/${f.taxYear}`;
  return {
    kind: 'self-employment',
    path,
    version: '5.0',
    body,
    periodStartDate: body.periodDates.periodStartDate,
    periodEndDate: body.periodDates.periodEndDate,
    reviewHash: hashOf(path, body),
  };
}

function prepareUkProperty(nino: string, f: Omit<MtdPropertyFigures, 'device'>): PreparedUpdate {
  checkPeriod(f);
  const body = propertyCumulativeBody(f);
  const path = `/individuals/business/property/uk/${nino}/${f.businessId}/cumulative/${f.taxYear}`;
  return {
    kind: 'uk-property',
    path,
    version: '6.0',
    body,
    periodStartDate: body.fromDate,
    periodEndDate: body.toDate,
    reviewHash: hashOf(path, body),
  };
}

async function reviewPrepared(deps: MtdDeps, p: Principal, clientId: string, prepare: (nino: string) => PreparedUpdate) {
  await requireMtdClient(deps, p, clientId);
  const ids = await requireIdentifiers(deps, clientId);
  const r = prepare(ids.nino);
  return { body: r.body, path: r.path.replace(ids.nino, '{nino}'), reviewHash: r.reviewHash };
}

export async function reviewUpdate(deps: MtdDeps, p: Principal, clientId: string, f: MtdUpdateFigures) {
  return reviewPrepared(deps, p, clientId, (nino) => prepareSelfEmployment(nino, f));
}

/** The exact UK property update that would be sent (Property Business 6.0), for review. */
export async function reviewPropertyUpdate(deps: MtdDeps, p: Principal, clientId: string, f: MtdPropertyFigures) {
  return reviewPrepared(deps, p, clientId, (nino) => prepareUkProperty(nino, f));
}

/** PUT the cumulative summary (204), keep the receipt, then trigger an in-year calculation (202). */
export async function submitUpdate(
  deps: MtdDeps,
  p: Principal,
  clientId: string,
  f: MtdUpdateFigures & { reviewHash: string; confirmed: true },
  fraudHeaders: Record<string, string>,
) {
  return sendPrepared(deps, p, clientId, f, fraudHeaders, (nino) => prepareSelfEmployment(nino, f));
}

/** The UK property update, sent as reviewed (Property Business 6.0), then the in-year calculation. */
export async function submitPropertyUpdate(
  deps: MtdDeps,
  p: Principal,
  clientId: string,
  f: MtdPropertyFigures & { reviewHash: string; confirmed: true },
  fraudHeaders: Record<string, string>,
) {
  return sendPrepared(deps, p, clientId, f, fraudHeaders, (nino) => prepareUkProperty(nino, f));
}

async function sendPrepared(
  deps: MtdDeps,
  p: Principal,
  clientId: string,
  f: { businessId: string; taxYear: string; reviewHash: string; confirmed: true },
  fraudHeaders: Record<string, string>,
  prepare: (nino: string) => PreparedUpdate,
) {
  requireSubmitter(p);
  await requireMtdClient(deps, p, clientId);
  if (f.confirmed !== true) throw new AppError('VALIDATION_FAILED', MTD_TEXTS.confirmRequired);
  const ids = await requireIdentifiers(deps, clientId);
  const auth = await latestAuthorisation(deps.db, clientId);
  if (auth?.status !== 'Accepted') throw new AppError('CONFLICT', MTD_TEXTS.notAuthorised);
  const r = prepare(ids.nino);
  if (r.reviewHash !== f.reviewHash) throw new AppError('CONFLICT', MTD_TEXTS.reviewChanged);
  const sent = await withHmrc(deps, (token) =>
    deps.hmrc.call({
      step: r.kind === 'uk-property' ? 'property cumulative update' : 'cumulative update',
      method: 'PUT',
      path: r.path,
      version: r.version,
      accessToken: token,
      clientId,
      fraudHeaders,
      body: r.body,
    }),
  );
  const submission = await deps.db.transaction(async (tx) =>
    insertSubmission(tx, {
      clientId,
      businessId: f.businessId,
      taxYear: f.taxYear,
      periodStartDate: r.periodStartDate,
      periodEndDate: r.periodEndDate,
      body: r.body,
      reviewHash: r.reviewHash,
      hmrcStatus: sent.status,
      correlationId: sent.correlationId,
      submittedBy: p.id,
    }),
  );
  let calculationId: string | null = null;
  try {
    const calc = await withHmrc(deps, (token) =>
      deps.hmrc.call<{ calculationId?: unknown }>({
        step: 'in-year calculation',
        method: 'POST',
        path: `/individuals/calculations/${ids.nino}/self-assessment/${f.taxYear}/trigger/in-year`,
        version: '9.0',
        accessToken: token,
        clientId,
        fraudHeaders,
      }),
    );
    if (typeof calc.body?.calculationId === 'string') calculationId = calc.body.calculationId;
  } catch (err) {
    // The update stands; the calculation can be triggered again.
    deps.logger.warn({ reason: err instanceof Error ? err.message : 'error' }, 'mtd: in-year calculation not triggered');
  }
  await deps.db.transaction(async (tx) => {
    if (calculationId)
      await insertCalculation(tx, { calculationId, clientId, submissionId: submission.id, taxYear: f.taxYear, calculationType: 'in-year' });
    await enqueueEvent(
      tx,
      SCHEMA,
      'integrations.mtd_update_submitted',
      { clientId, submissionId: submission.id, taxYear: f.taxYear, periodEndDate: submission.periodEndDate, calculationId },
      { actor: { kind: p.kind, id: p.id }, key: clientId },
    );
  });
  return {
    id: submission.id,
    businessId: submission.businessId,
    taxYear: submission.taxYear,
    periodStartDate: submission.periodStartDate,
    periodEndDate: submission.periodEndDate,
    hmrcStatus: submission.hmrcStatus,
    correlationId: submission.correlationId,
    submittedAt: submission.submittedAt.toISOString(),
    submittedBy: submission.submittedBy,
    calculationId,
  };
}

/** GET the triggered calculation (HMRC: wait at least 5 seconds after the trigger) and its headline figures. */
export async function getCalculation(
  deps: MtdDeps,
  p: Principal,
  clientId: string,
  calculationId: string,
  fraudHeaders: Record<string, string>,
): Promise<MtdCalculationSummary> {
  await requireMtdClient(deps, p, clientId);
  const ids = await requireIdentifiers(deps, clientId);
  const calc = await findCalculation(deps.db, clientId, calculationId);
  if (!calc) throw new AppError('NOT_FOUND', 'Calculation not found');
  const answer = await withHmrc(deps, (token) =>
    deps.hmrc.call<{
      metadata?: { taxYear?: unknown; calculationTimestamp?: unknown };
      calculation?: {
        taxCalculation?: {
          incomeTax?: { totalIncomeReceivedFromAllSources?: unknown; totalTaxableIncome?: unknown };
          totalIncomeTaxAndNicsDue?: unknown;
        };
      };
    }>({
      step: 'calculation',
      method: 'GET',
      path: `/individuals/calculations/${ids.nino}/self-assessment/${calc.taxYear}/${encodeURIComponent(calculationId)}`,
      version: '9.0',
      accessToken: token,
      clientId,
      fraudHeaders,
    }),
  );
  const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);
  const str = (v: unknown) => (typeof v === 'string' ? v : null);
  const tc = answer.body?.calculation?.taxCalculation;
  return {
    calculationId,
    taxYear: str(answer.body?.metadata?.taxYear),
    calculationTimestamp: str(answer.body?.metadata?.calculationTimestamp),
    totalIncomeReceived: num(tc?.incomeTax?.totalIncomeReceivedFromAllSources),
    totalTaxableIncome: num(tc?.incomeTax?.totalTaxableIncome),
    totalIncomeTaxAndNicsDue: num(tc?.totalIncomeTaxAndNicsDue),
  };
}

// --- reads -----------------------------------------------------------------------------------------

function toObligation(o: MtdObligationRow, today: string) {
  return {
    kind: o.kind,
    businessId: o.businessId,
    typeOfBusiness: o.typeOfBusiness,
    periodStartDate: o.periodStartDate,
    periodEndDate: o.periodEndDate,
    dueDate: o.dueDate,
    status: o.status,
    receivedDate: o.receivedDate,
    overdue: isOverdue(o, today),
  };
}

export async function getMtdClient(deps: MtdDeps, p: Principal, clientId: string): Promise<MtdClient> {
  const entry = await requireMtdClient(deps, p, clientId);
  const [c, incomes, auth, businesses, obligations, submissions, finals] = await Promise.all([
    findMtdClient(deps.db, clientId),
    listIncomes(deps.db, [clientId]),
    latestAuthorisation(deps.db, clientId),
    listBusinesses(deps.db, clientId),
    listObligations(deps.db, clientId),
    listSubmissions(deps.db, clientId),
    listFinalDeclarations(deps.db, clientId),
  ]);
  const today = londonDate(deps.now());
  const scope = mtdScope(incomesByClient(incomes).get(clientId) ?? {}, c?.exemptionReason ?? null);
  return {
    clientId,
    companyName: entry.companyName,
    nino: c?.nino ?? null,
    postcode: c?.postcode ?? null,
    incomes: incomes.map((i) => ({ taxYear: i.taxYear, amount: i.amountPence / 100, recordedAt: i.recordedAt.toISOString() })),
    scope,
    authorisation: auth ? toAuthorisation(auth) : null,
    businesses: businesses.map((b) => ({ businessId: b.businessId, typeOfBusiness: b.typeOfBusiness, tradingName: b.tradingName })),
    obligations: obligations.map((o) => toObligation(o, today)),
    obligationsRefreshedAt: obligations[0]?.refreshedAt.toISOString() ?? null,
    submissions: submissions.map((s) => ({
      id: s.id,
      businessId: s.businessId,
      taxYear: s.taxYear,
      periodStartDate: s.periodStartDate,
      periodEndDate: s.periodEndDate,
      hmrcStatus: s.hmrcStatus,
      correlationId: s.correlationId,
      submittedAt: s.submittedAt.toISOString(),
      submittedBy: s.submittedBy,
      calculationId: s.calculationId,
    })),
    finalDeclarations: finals.map((f) => ({
      id: f.id,
      taxYear: f.taxYear,
      calculationId: f.calculationId,
      hmrcStatus: f.hmrcStatus,
      correlationId: f.correlationId,
      submittedAt: f.submittedAt.toISOString(),
      submittedBy: f.submittedBy,
    })),
  };
}

// --- final declaration -----------------------------------------------------------------------------------

async function requireFinalPreconditions(deps: MtdDeps, p: Principal, clientId: string, taxYear: string) {
  requireSubmitter(p);
  await requireMtdClient(deps, p, clientId);
  if (!isTaxYear(taxYear)) throw new AppError('VALIDATION_FAILED', `${taxYear} is not a tax year`);
  // HMRC refuses a final declaration before the year ends (RULE FINAL_DECLARATION_TAX_YEAR): said here, plainly.
  if (londonDate(deps.now()) <= taxYearEnd(taxYear)) throw new AppError('CONFLICT', MTD_TEXTS.finalTooEarly(taxYear));
  const ids = await requireIdentifiers(deps, clientId);
  const auth = await latestAuthorisation(deps.db, clientId);
  if (auth?.status !== 'Accepted') throw new AppError('CONFLICT', MTD_TEXTS.notAuthorised);
  return ids;
}

/**
 * The first step of a final declaration: HMRC's intent-to-finalise calculation for the year (Individual
 * Calculations 9.0, trigger). Its id is kept; the person reads it ("Show calculation", at least 5 s later,
 * as HMRC asks), shows it to the client, and only then declares.
 */
export async function triggerFinalCalculation(
  deps: MtdDeps,
  p: Principal,
  clientId: string,
  taxYear: string,
  fraudHeaders: Record<string, string>,
) {
  const ids = await requireFinalPreconditions(deps, p, clientId, taxYear);
  const calc = await withHmrc(deps, (token) =>
    deps.hmrc.call<{ calculationId?: unknown }>({
      step: 'intent-to-finalise calculation',
      method: 'POST',
      path: `/individuals/calculations/${ids.nino}/self-assessment/${taxYear}/trigger/intent-to-finalise`,
      version: '9.0',
      accessToken: token,
      clientId,
      fraudHeaders,
    }),
  );
  const calculationId = typeof calc.body?.calculationId === 'string' ? calc.body.calculationId : null;
  if (!calculationId) throw new AppError('UPSTREAM_UNAVAILABLE', MTD_TEXTS.hmrcUnavailable);
  await insertCalculation(deps.db, { calculationId, clientId, submissionId: null, taxYear, calculationType: 'intent-to-finalise' });
  return { calculationId };
}

/**
 * The final declaration: the agent confirms HMRC's declaration statement (the client has seen and approved
 * the calculation and what was filed), and the product agrees to that intent-to-finalise calculation
 * (POST …/{calculationId}/final-declaration, 204). HMRC's answer is kept as the receipt and announced.
 */
export async function submitFinalDeclaration(
  deps: MtdDeps,
  p: Principal,
  clientId: string,
  body: { taxYear: string; calculationId: string; confirmed: true },
  fraudHeaders: Record<string, string>,
) {
  if (body.confirmed !== true) throw new AppError('VALIDATION_FAILED', MTD_TEXTS.finalApprovalRequired);
  const ids = await requireFinalPreconditions(deps, p, clientId, body.taxYear);
  const calc = await findCalculation(deps.db, clientId, body.calculationId);
  if (!calc || calc.taxYear !== body.taxYear || calc.calculationType !== 'intent-to-finalise')
    throw new AppError('CONFLICT', MTD_TEXTS.finalNeedsCalculation);
  const sent = await withHmrc(deps, (token) =>
    deps.hmrc.call({
      step: 'final declaration',
      method: 'POST',
      path: `/individuals/calculations/${ids.nino}/self-assessment/${body.taxYear}/${encodeURIComponent(body.calculationId)}/final-declaration`,
      version: '9.0',
      accessToken: token,
      clientId,
      fraudHeaders,
    }),
  );
  const made = await deps.db.transaction(async (tx) => {
    const row = await insertFinalDeclaration(tx, {
      clientId,
      taxYear: body.taxYear,
      calculationId: body.calculationId,
      hmrcStatus: sent.status,
      correlationId: sent.correlationId,
      submittedBy: p.id,
    });
    await enqueueEvent(
      tx,
      SCHEMA,
      'integrations.mtd_final_declaration_submitted',
      { clientId, declarationId: row.id, taxYear: body.taxYear, calculationId: body.calculationId },
      { actor: { kind: p.kind, id: p.id }, key: clientId },
    );
    return row;
  });
  return {
    id: made.id,
    taxYear: made.taxYear,
    calculationId: made.calculationId,
    hmrcStatus: made.hmrcStatus,
    correlationId: made.correlationId,
    submittedAt: made.submittedAt.toISOString(),
    submittedBy: made.submittedBy,
  };
}

/** Every visible client's authorisation status, scope and obligations (the back office's MTD page). */
/** The clients this person may see (an accountant: their own), from the directory. */
async function visibleDirectory(deps: MtdDeps, p: Principal) {
  const v = clientVisibility(p);
  return (await listDirectory(deps.db)).filter((d) => canSeeClient(v, d.assignedAccountantId));
}

export async function getMtdOverview(deps: MtdDeps, p: Principal): Promise<MtdOverview> {
  const directory = await visibleDirectory(deps, p);
  const ids = new Set(directory.map((d) => d.clientId));
  const [mtd, incomes, auths, obligations] = await Promise.all([
    listMtdClients(deps.db),
    listIncomes(deps.db),
    listAuthorisations(deps.db),
    listObligations(deps.db),
  ]);
  const byClientIncome = incomesByClient(incomes.filter((i) => ids.has(i.clientId)));
  const lastAuth = new Map<string, MtdAuthorisationRow>();
  for (const a of auths) lastAuth.set(a.clientId, a);
  const today = londonDate(deps.now());
  const scope: Record<'now' | 'april2027' | 'april2028', string[]> = { now: [], april2027: [], april2028: [] };
  const clients = directory
    .filter(
      (d) =>
        ids.has(d.clientId) && (byClientIncome.has(d.clientId) || lastAuth.has(d.clientId) || mtd.some((m) => m.clientId === d.clientId)),
    )
    .map((d) => {
      const m = mtd.find((x) => x.clientId === d.clientId);
      const s = mtdScope(byClientIncome.get(d.clientId) ?? {}, m?.exemptionReason ?? null);
      if (s.mandatedFrom === 'now') scope.now.push(d.clientId);
      if (s.mandatedFrom === 'april_2027') scope.april2027.push(d.clientId);
      if (s.mandatedFrom === 'april_2028') scope.april2028.push(d.clientId);
      const obs = obligations.filter((o) => o.clientId === d.clientId);
      const a = lastAuth.get(d.clientId);
      return {
        clientId: d.clientId,
        companyName: d.companyName,
        authorisationStatus: a?.status ?? null,
        expiresOn: a?.expiresOn ?? null,
        mandatedFrom: s.mandatedFrom,
        exemptionReason: s.exemptionReason,
        due: obs.filter((o) => o.status !== 'fulfilled' && !isOverdue(o, today)).length,
        overdue: obs.filter((o) => isOverdue(o, today)).length,
        fulfilled: obs.filter((o) => o.status === 'fulfilled').length,
      };
    })
    .sort((a, b) => a.companyName.localeCompare(b.companyName));
  const names = new Map(directory.map((d) => [d.clientId, d.companyName]));
  return {
    clients,
    scope,
    obligations: obligations
      .filter((o) => ids.has(o.clientId))
      .map((o) => ({
        ...toObligation(o, today),
        clientId: o.clientId,
        companyName: names.get(o.clientId) ?? '',
        quarter: quarterLabel(o.periodEndDate),
      })),
  };
}
