import {
  AppError,
  enqueueEvent,
  PermanentJobError,
  RetryLaterJobError,
  type Db,
  type JobContext,
  type JobQueue,
  type OutboxRelay,
  type Principal,
} from '@countinghouse/kit';
import {
  INTEGRATION_TEXTS,
  INTEGRATION_TYPES,
  MESSAGES,
  OAUTH_STATE_TTL_SECONDS,
  type Actor,
  type ConnectResult,
  type IntegrationCard,
  type IntegrationData,
  type IntegrationList,
  type IntegrationType,
  type JobPayload,
  type SyncJob,
} from '@countinghouse/proto';
import { and, asc, eq, isNull, lt, gt, sql } from 'drizzle-orm';
import { takeProviderCall } from './db/budget.js';
import { assumedExpiry, keepAliveHorizon, refreshTokenExpiry } from './domain/keep-alive.js';
import { MAX_SYNC_WAIT_MS, XERO_BUDGET, type CallBudget } from './domain/rate-limit.js';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { ProvidersSettings } from './config.js';
import { clientDirectory, clientIntegrations, integrationCredentials, oauthStates, SCHEMA, syncJobs } from './db/schema.js';
import { canView, viewScopeOf } from './domain/access.js';
import { pkceChallenge, randomSecret, sha256, TokenCipher } from './domain/token-cipher.js';
import type { ProviderAdapter } from './providers/adapter.js';
import { ProviderError } from './providers/http.js';
import { authorizeUrl, exchangeCode, refreshGrant, revokeGrant, type TokenSet } from './providers/oauth.js';
import { quickbooksAdapter } from './providers/quickbooks.js';
import { xeroAdapter } from './providers/xero.js';

export const SYNC_JOB = 'integrations.sync' as const;
export const KEEP_ALIVE_JOB = 'integrations.keep_alive' as const;

export interface IntegrationsServiceOptions {
  db: Db;
  relay: OutboxRelay;
  jobs: JobQueue;
  logger: Logger;
  cipher: TokenCipher;
  providers: ProvidersSettings;
  /** Attempts and first backoff of a sync job (tests shorten the backoff). */
  syncAttempts: number;
  syncBackoffMs: number;
  /** Xero's calls per tenant (60 a minute, 5,000 a day unless told otherwise). */
  xeroBudget?: CallBudget;
  /** The clock of rate budgets, retry times and token expiries (tests inject one). */
  now?: () => Date;
}

/** What one keep-alive run did, grant by grant. */
export interface KeepAliveReport {
  refreshed: string[];
  refused: string[];
  unavailable: string[];
}

type IntegrationRow = typeof clientIntegrations.$inferSelect;
type DirectoryRow = typeof clientDirectory.$inferSelect;

/** Refresh a little before the provider's expiry, so a token never lapses mid-sync. */
const EXPIRY_MARGIN_MS = 60_000;
const SYSTEM: Actor = { kind: 'system', id: null };

const notFound = () => new AppError('NOT_FOUND', INTEGRATION_TEXTS.integrationNotFound);

function dataOf(row: IntegrationRow | undefined): IntegrationData {
  const d = (row?.integrationData ?? {}) as Partial<IntegrationData>;
  return { company_name: d.company_name ?? null, ...(d.summary ? { summary: d.summary } : {}) };
}

/** The integrations: connect (OAuth authorization code), sync jobs, disconnect, and what each person may see. */
export class IntegrationsService {
  private readonly adapters: Record<IntegrationType, ProviderAdapter>;
  private readonly now: () => Date;

  constructor(private readonly o: IntegrationsServiceOptions) {
    this.now = o.now ?? (() => new Date());
    const budget = o.xeroBudget ?? XERO_BUDGET;
    this.adapters = {
      xero: xeroAdapter(o.providers.xero, {
        now: this.now,
        beforeCall: async (tenantId) => {
          const at = await takeProviderCall(o.db, 'xero', tenantId, budget, this.now());
          if (at) throw new ProviderError('xero', 'rate_limited', 'call budget of the organisation', undefined, at);
        },
      }),
      quickbooks: quickbooksAdapter(o.providers.quickbooks, { now: this.now }),
    };
  }

  // ---- who is asking about which client ----

  /** The person's own business (the directory entry naming them), or null. */
  private async ownClient(p: Principal): Promise<DirectoryRow | null> {
    if (p.kind !== 'user') return null;
    const rows = await this.o.db
      .select()
      .from(clientDirectory)
      .where(eq(clientDirectory.userId, p.id))
      .orderBy(asc(clientDirectory.companyName), asc(clientDirectory.clientId))
      .limit(1);
    return rows[0] ?? null;
  }

  private async requireOwnClient(p: Principal): Promise<DirectoryRow> {
    const c = await this.ownClient(p);
    if (!c) throw new AppError('CONFLICT', INTEGRATION_TEXTS.noClientRecord);
    return c;
  }

  private async integrationOf(clientId: string, provider: IntegrationType): Promise<IntegrationRow | undefined> {
    const rows = await this.o.db
      .select()
      .from(clientIntegrations)
      .where(and(eq(clientIntegrations.clientId, clientId), eq(clientIntegrations.integrationType, provider)));
    return rows[0];
  }

  // ---- list ----

  /** One card per provider for the client: the caller's own business, or (staff) the one asked for. */
  async list(p: Principal, clientId: string | undefined): Promise<IntegrationList> {
    let client: DirectoryRow | null;
    if (clientId) {
      const rows = await this.o.db.select().from(clientDirectory).where(eq(clientDirectory.clientId, clientId));
      const entry = rows[0];
      // Someone else's client looks exactly like one that does not exist.
      if (!entry || !canView(viewScopeOf(p), entry)) throw new AppError('NOT_FOUND', INTEGRATION_TEXTS.integrationNotFound);
      client = entry;
    } else {
      client = await this.ownClient(p);
    }
    const rows = client ? await this.o.db.select().from(clientIntegrations).where(eq(clientIntegrations.clientId, client.clientId)) : [];
    const integrations = await Promise.all(
      INTEGRATION_TYPES.map(async (t): Promise<IntegrationCard> => {
        const row = rows.find((r) => r.integrationType === t);
        return {
          id: row?.id ?? null,
          client_id: client?.clientId ?? null,
          integration_type: t,
          is_active: row?.isActive ?? false,
          integration_data: dataOf(row),
          last_sync_at: row?.lastSyncAt?.toISOString() ?? null,
          needs_reconnect: row?.needsReconnect ?? false,
          configured: this.o.providers[t].configured,
          sync: row?.lastSyncJobId ? await this.jobView(row, row.lastSyncJobId) : null,
        };
      }),
    );
    return { client: client ? { id: client.clientId, company_name: client.companyName } : null, integrations };
  }

  // ---- connect ----

  /** connect-xero / connect-quickbooks: a state bound to this person, client and provider; the consent URL. */
  async startConnect(p: Principal, provider: IntegrationType): Promise<string> {
    const settings = this.o.providers[provider];
    if (!settings.configured) throw new AppError('NOT_CONFIGURED', INTEGRATION_TEXTS.notConfigured(provider));
    const client = await this.requireOwnClient(p);
    const state = randomSecret();
    const stateHash = sha256(state);
    const verifier = settings.pkce ? randomSecret() : null;
    await this.o.db.delete(oauthStates).where(lt(oauthStates.expiresAt, sql`now() - interval '1 day'`));
    await this.o.db.insert(oauthStates).values({
      stateHash,
      provider,
      userId: p.id,
      clientId: client.clientId,
      codeVerifierEnc: verifier ? this.o.cipher.encrypt(verifier, `state:${stateHash}`) : null,
      expiresAt: new Date(Date.now() + OAUTH_STATE_TTL_SECONDS * 1000),
    });
    return authorizeUrl(settings, state, verifier ? pkceChallenge(verifier) : null);
  }

  /**
   * The provider's redirect: the state must be ours, for this provider, unexpired and unused (it is
   * spent here, whatever happens next). Then the code is exchanged, the organisation recorded and the
   * tokens stored encrypted. Any failure stores nothing and answers 'error'.
   */
  async completeConnect(
    provider: IntegrationType,
    q: { code?: string; state?: string; realmId?: string; error?: string },
  ): Promise<ConnectResult> {
    if (!q.state) return 'error';
    const stateHash = sha256(q.state);
    const spent = await this.o.db
      .update(oauthStates)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(oauthStates.stateHash, stateHash),
          eq(oauthStates.provider, provider),
          isNull(oauthStates.usedAt),
          gt(oauthStates.expiresAt, sql`now()`),
        ),
      )
      .returning();
    const st = spent[0];
    if (!st) {
      this.o.logger.warn({ provider }, 'integrations: callback with an unknown, spent or expired state');
      return 'error';
    }
    if (q.error || !q.code) {
      this.o.logger.info({ provider, error: q.error?.slice(0, 50) }, 'integrations: the provider did not grant access');
      return 'error';
    }
    const settings = this.o.providers[provider];
    if (!settings.configured) return 'error';
    try {
      const verifier = st.codeVerifierEnc ? this.o.cipher.decrypt(st.codeVerifierEnc, `state:${stateHash}`) : null;
      const tokens = await exchangeCode(settings, q.code, verifier);
      const org = await this.adapters[provider].organisation(tokens.accessToken, { realmId: q.realmId });
      await this.o.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(clientIntegrations)
          .values({
            clientId: st.clientId,
            integrationType: provider,
            isActive: true,
            integrationData: { company_name: org.companyName },
            connectedBy: st.userId,
            connectedAt: new Date(),
          })
          .onConflictDoUpdate({
            target: [clientIntegrations.clientId, clientIntegrations.integrationType],
            set: {
              isActive: true,
              needsReconnect: false,
              lastSyncError: null,
              integrationData: sql`${clientIntegrations.integrationData} || ${JSON.stringify({ company_name: org.companyName })}::jsonb`,
              connectedBy: st.userId,
              connectedAt: sql`now()`,
              updatedAt: sql`now()`,
            },
          })
          .returning();
        const id = row!.id;
        const creds = {
          externalId: org.externalId,
          connectionId: org.connectionId,
          ...this.sealTokens(id, provider, tokens),
        };
        await tx
          .insert(integrationCredentials)
          .values({ integrationId: id, ...creds })
          .onConflictDoUpdate({ target: integrationCredentials.integrationId, set: { ...creds, updatedAt: sql`now()` } });
        await enqueueEvent(
          tx,
          SCHEMA,
          'integrations.connected',
          { integrationId: id, clientId: st.clientId, integrationType: provider, companyName: org.companyName },
          { actor: { kind: 'user', id: st.userId }, key: st.clientId },
        );
      });
      this.o.relay.kick();
      return 'connected';
    } catch (err) {
      this.o.logger.warn({ provider, reason: safeReason(err) }, 'integrations: connection failed');
      return 'error';
    }
  }

  private sealTokens(integrationId: string, provider: IntegrationType, t: TokenSet) {
    const now = this.now();
    return {
      accessTokenEnc: this.o.cipher.encrypt(t.accessToken, `${integrationId}:access`),
      refreshTokenEnc: this.o.cipher.encrypt(t.refreshToken, `${integrationId}:refresh`),
      accessExpiresAt: new Date(now.getTime() + t.expiresIn * 1000),
      refreshExpiresAt: refreshTokenExpiry(provider, t.refreshExpiresIn, now),
      scope: t.scope,
    };
  }

  // ---- sync ----

  /** sync-xero-data / sync-quickbooks-data: queue a sync (or hand back the one already running). */
  async requestSync(p: Principal, provider: IntegrationType): Promise<string> {
    const client = await this.requireOwnClient(p);
    const row = await this.integrationOf(client.clientId, provider);
    if (!row || !row.isActive) throw new AppError('CONFLICT', INTEGRATION_TEXTS.notConnected(provider));
    if (row.needsReconnect) throw new AppError('CONFLICT', INTEGRATION_TEXTS.needsReconnect(provider));
    if (row.lastSyncJobId) {
      const s = await this.o.jobs.status(SYNC_JOB, row.lastSyncJobId);
      if (s && (s.state === 'waiting' || s.state === 'active' || s.state === 'delayed')) return row.lastSyncJobId;
    }
    const jobId = randomUUID();
    await this.o.db.transaction(async (tx) => {
      await tx.insert(syncJobs).values({ jobId, integrationId: row.id, requestedBy: p.id });
      await tx
        .update(clientIntegrations)
        .set({ lastSyncJobId: jobId, updatedAt: sql`now()` })
        .where(eq(clientIntegrations.id, row.id));
    });
    await this.o.jobs.enqueue(
      SYNC_JOB,
      { integrationId: row.id, integrationType: provider },
      { jobId, attempts: this.o.syncAttempts, backoffMs: this.o.syncBackoffMs },
    );
    return jobId;
  }

  /** A sync job's state, to those who may see its integration (others: not found). */
  async jobStatus(p: Principal, jobId: string): Promise<SyncJob> {
    const rows = await this.o.db
      .select({ integration: clientIntegrations, directory: clientDirectory })
      .from(syncJobs)
      .innerJoin(clientIntegrations, eq(clientIntegrations.id, syncJobs.integrationId))
      .leftJoin(clientDirectory, eq(clientDirectory.clientId, clientIntegrations.clientId))
      .where(eq(syncJobs.jobId, jobId));
    const r = rows[0];
    if (!r || !r.directory || !canView(viewScopeOf(p), r.directory)) throw new AppError('NOT_FOUND', INTEGRATION_TEXTS.syncJobNotFound);
    const view = await this.jobView(r.integration, jobId);
    if (!view) throw new AppError('NOT_FOUND', INTEGRATION_TEXTS.syncJobNotFound);
    return view;
  }

  private async jobView(row: IntegrationRow, jobId: string): Promise<SyncJob | null> {
    const s = await this.o.jobs.status(SYNC_JOB, jobId);
    if (!s) return null;
    const view: SyncJob = { id: jobId, integration_type: row.integrationType as IntegrationType, state: s.state, progress: s.progress };
    if (s.state === 'delayed' || s.state === 'waiting') {
      const [job] = await this.o.db.select({ retryAt: syncJobs.retryAt }).from(syncJobs).where(eq(syncJobs.jobId, jobId));
      if (job?.retryAt && job.retryAt.getTime() > this.now().getTime()) {
        view.retry_at = job.retryAt.toISOString();
        view.notice = INTEGRATION_TEXTS.syncWaiting(view.integration_type);
      }
    }
    if (s.state === 'failed') {
      view.error = row.needsReconnect ? INTEGRATION_TEXTS.needsReconnect(view.integration_type) : MESSAGES.failedToSyncData;
    }
    return view;
  }

  /**
   * The sync processor. Provider trouble that may pass (429, 5xx, timeouts) is thrown as a normal
   * error so the queue retries with backoff; a refused grant marks the integration as needing
   * reconnection and fails the job for good.
   */
  async runSync(payload: JobPayload<typeof SYNC_JOB>, ctx: JobContext): Promise<{ syncedAt: string }> {
    const [row] = await this.o.db.select().from(clientIntegrations).where(eq(clientIntegrations.id, payload.integrationId));
    if (!row || !row.isActive) throw new PermanentJobError('The integration is not connected');
    if (row.needsReconnect) throw new PermanentJobError('The integration needs reconnecting');
    const provider = row.integrationType as IntegrationType;
    const adapter = this.adapters[provider];
    try {
      await ctx.reportProgress(5);
      const [cred] = await this.o.db.select().from(integrationCredentials).where(eq(integrationCredentials.integrationId, row.id));
      if (!cred) throw new ProviderError(provider, 'invalid_grant', 'stored grant (missing)');
      let access = await this.accessToken(row.id, provider, false);
      let result;
      try {
        result = await adapter.summarise(access, cred.externalId, ctx.reportProgress);
      } catch (err) {
        // The access token was refused before its time (revoked, or the clock is off): refresh once.
        if (!(err instanceof ProviderError && err.failure === 'unauthorized')) throw err;
        access = await this.accessToken(row.id, provider, true);
        result = await adapter.summarise(access, cred.externalId, ctx.reportProgress);
      }
      const syncedAt = new Date();
      const s = result.summary;
      await this.o.db.transaction(async (tx) => {
        const data: IntegrationData = { company_name: result.companyName ?? dataOf(row).company_name, summary: s };
        await tx
          .update(clientIntegrations)
          .set({ integrationData: data, lastSyncAt: syncedAt, lastSyncError: null, updatedAt: sql`now()` })
          .where(eq(clientIntegrations.id, row.id));
        await enqueueEvent(
          tx,
          SCHEMA,
          'integrations.synced',
          {
            integrationId: row.id,
            clientId: row.clientId,
            integrationType: provider,
            syncedAt: syncedAt.toISOString(),
            currency: s.currency,
            receivables: s.receivables,
            payables: s.payables,
            overdueReceivables: s.overdue_receivables,
            overduePayables: s.overdue_payables,
            contacts: s.contacts,
            invoices: s.invoices,
          },
          { actor: SYSTEM, key: row.clientId },
        );
      });
      this.o.relay.kick();
      await ctx.reportProgress(100);
      return { syncedAt: syncedAt.toISOString() };
    } catch (err) {
      const reason = safeReason(err);
      if (err instanceof ProviderError && err.retryAt) await this.deferOrGiveUp(row, ctx.id, err, err.retryAt);
      const grantGone = err instanceof ProviderError && (err.failure === 'invalid_grant' || err.failure === 'unauthorized');
      const retryable = !grantGone && !(err instanceof ProviderError && !err.retryable) && !(err instanceof PermanentJobError);
      if (retryable) {
        if (ctx.attempt >= this.o.syncAttempts) {
          await this.recordFailure(row, err instanceof ProviderError ? 'provider_unavailable' : 'error', reason);
        }
        throw err; // the queue retries with backoff
      }
      await this.recordFailure(row, grantGone ? 'needs_reconnect' : 'error', reason);
      throw new PermanentJobError(reason, { cause: err });
    }
  }

  /**
   * The provider (or our budget for it) said "not now, at T": the job runs again at T, using up no
   * attempt, unless waiting would take it past MAX_SYNC_WAIT_MS after it was asked for.
   */
  private async deferOrGiveUp(row: IntegrationRow, jobId: string, err: ProviderError, at: Date): Promise<never> {
    const [job] = await this.o.db
      .update(syncJobs)
      .set({
        retryAt: at,
        retryReason: err.status === 429 ? 'provider_429' : err.status ? `provider_${err.status}` : 'budget',
        deferrals: sql`${syncJobs.deferrals} + 1`,
      })
      .where(eq(syncJobs.jobId, jobId))
      .returning();
    const since = job?.createdAt ?? this.now();
    if (at.getTime() - since.getTime() > MAX_SYNC_WAIT_MS) {
      await this.recordFailure(row, 'provider_unavailable', safeReason(err));
      throw new PermanentJobError(safeReason(err), { cause: err });
    }
    this.o.logger.info(
      { provider: row.integrationType, at: at.toISOString(), reason: safeReason(err) },
      'integrations: sync waits for the provider',
    );
    throw new RetryLaterJobError(at, safeReason(err));
  }

  private async recordFailure(
    row: IntegrationRow,
    reason: 'needs_reconnect' | 'provider_unavailable' | 'error',
    detail: string,
    trigger: 'sync' | 'keep_alive' = 'sync',
  ) {
    await this.o.db.transaction(async (tx) => {
      await tx
        .update(clientIntegrations)
        .set({
          lastSyncError: detail.slice(0, 300),
          needsReconnect: reason === 'needs_reconnect' ? true : undefined,
          updatedAt: sql`now()`,
        })
        .where(eq(clientIntegrations.id, row.id));
      await enqueueEvent(
        tx,
        SCHEMA,
        'integrations.sync_failed',
        { integrationId: row.id, clientId: row.clientId, integrationType: row.integrationType as IntegrationType, reason, trigger },
        { actor: SYSTEM, key: row.clientId },
      );
    });
    this.o.relay.kick();
  }

  /**
   * A usable access token: the stored one while it has a minute left, else a refreshed one. The row
   * is locked while refreshing, so two workers never spend the same (single-use) refresh token; the
   * rotated refresh token is stored at once.
   */
  private async accessToken(integrationId: string, provider: IntegrationType, force: boolean): Promise<string> {
    return this.o.db.transaction(async (tx) => {
      const [cred] = await tx
        .select()
        .from(integrationCredentials)
        .where(eq(integrationCredentials.integrationId, integrationId))
        .for('update');
      if (!cred) throw new ProviderError(provider, 'invalid_grant', 'stored grant (missing)');
      let access: string;
      let refresh: string;
      try {
        access = this.o.cipher.decrypt(cred.accessTokenEnc, `${integrationId}:access`);
        refresh = this.o.cipher.decrypt(cred.refreshTokenEnc, `${integrationId}:refresh`);
      } catch {
        // sealed with another key: the grant is unusable here, the client must connect again
        throw new ProviderError(provider, 'invalid_grant', 'stored grant (cannot be decrypted)');
      }
      if (!force && cred.accessExpiresAt.getTime() - EXPIRY_MARGIN_MS > this.now().getTime()) return access;
      const tokens = await refreshGrant(this.o.providers[provider], refresh);
      await tx
        .update(integrationCredentials)
        .set({ ...this.sealTokens(integrationId, provider, tokens), updatedAt: sql`now()` })
        .where(eq(integrationCredentials.integrationId, integrationId));
      return tokens.accessToken;
    });
  }

  // ---- keep-alive ----

  /**
   * The daily keep-alive: every active grant whose refresh token lapses within 14 days is refreshed
   * (the rotated token stored, its new expiry with it), so a client who never syncs stays connected.
   * A refused grant marks the integration "needs reconnecting" and tells the practice
   * (integrations.sync_failed, trigger keep_alive); an unreachable provider is tried again tomorrow.
   */
  async keepAlive(): Promise<KeepAliveReport> {
    const now = this.now();
    const rows = await this.o.db
      .select({
        integration: clientIntegrations,
        refreshExpiresAt: integrationCredentials.refreshExpiresAt,
        updatedAt: integrationCredentials.updatedAt,
      })
      .from(integrationCredentials)
      .innerJoin(clientIntegrations, eq(clientIntegrations.id, integrationCredentials.integrationId))
      .where(and(eq(clientIntegrations.isActive, true), eq(clientIntegrations.needsReconnect, false)));
    const report: KeepAliveReport = { refreshed: [], refused: [], unavailable: [] };
    const horizon = keepAliveHorizon(now).getTime();
    for (const r of rows) {
      const provider = r.integration.integrationType as IntegrationType;
      if (!this.o.providers[provider].configured) continue;
      if (assumedExpiry(provider, r.refreshExpiresAt, r.updatedAt).getTime() > horizon) continue;
      let outcome: 'refreshed' | 'refused' | 'unavailable';
      try {
        await this.accessToken(r.integration.id, provider, true);
        outcome = 'refreshed';
      } catch (err) {
        outcome = err instanceof ProviderError && err.failure === 'invalid_grant' ? 'refused' : 'unavailable';
        this.o.logger.warn(
          { provider, integrationId: r.integration.id, reason: safeReason(err) },
          'integrations: keep-alive refresh failed',
        );
      }
      await this.o.db
        .update(integrationCredentials)
        .set({ keepAliveAt: now, keepAliveOutcome: outcome })
        .where(eq(integrationCredentials.integrationId, r.integration.id));
      if (outcome === 'refused')
        await this.recordFailure(r.integration, 'needs_reconnect', 'refresh refused by the provider', 'keep_alive');
      report[outcome].push(r.integration.id);
    }
    return report;
  }

  // ---- disconnect ----

  /** Disconnect: is_active false, the record kept, the stored grant deleted and revoked at the provider. */
  async disconnect(p: Principal, provider: IntegrationType): Promise<void> {
    const client = await this.requireOwnClient(p);
    const row = await this.integrationOf(client.clientId, provider);
    if (!row) throw notFound();
    const refreshToken = await this.o.db.transaction(async (tx) => {
      const [cred] = await tx.delete(integrationCredentials).where(eq(integrationCredentials.integrationId, row.id)).returning();
      await tx
        .update(clientIntegrations)
        .set({ isActive: false, needsReconnect: false, updatedAt: sql`now()` })
        .where(eq(clientIntegrations.id, row.id));
      if (row.isActive) {
        await enqueueEvent(
          tx,
          SCHEMA,
          'integrations.disconnected',
          { integrationId: row.id, clientId: row.clientId, integrationType: provider },
          { actor: { kind: 'user', id: p.id }, key: row.clientId },
        );
      }
      if (!cred) return null;
      try {
        return this.o.cipher.decrypt(cred.refreshTokenEnc, `${row.id}:refresh`);
      } catch {
        return null;
      }
    });
    this.o.relay.kick();
    const settings = this.o.providers[provider];
    if (refreshToken && settings.configured) {
      // Best effort: the local disconnect stands even when the provider cannot be reached.
      await revokeGrant(settings, refreshToken).catch((err) =>
        this.o.logger.warn({ provider, reason: safeReason(err) }, 'integrations: revocation at the provider failed'),
      );
    }
  }
}

/** A failure's description that is safe to log and store: our provider errors, or only the error's class. */
export function safeReason(err: unknown): string {
  if (err instanceof ProviderError || err instanceof PermanentJobError || err instanceof AppError) return err.message;
  return err instanceof Error ? `${err.name}` : 'unknown error';
}
