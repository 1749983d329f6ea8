import { clientDirectoryEntry, type Db, type DbOrTx, type Tx } from '@countinghouse/kit';
import type { IntegrationData, IntegrationType } from '@countinghouse/proto';
import { and, asc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { DAY_MS, MINUTE_MS, type CallBudget } from '../domain/rate-limit.js';
import { clientDirectory, clientIntegrations, integrationCredentials, oauthStates, syncJobs } from './schema.js';

export type { DbOrTx, Tx } from '@countinghouse/kit';

export type IntegrationRow = typeof clientIntegrations.$inferSelect;
export type DirectoryRow = typeof clientDirectory.$inferSelect;
export type CredentialsRow = typeof integrationCredentials.$inferSelect;
export type OAuthStateRow = typeof oauthStates.$inferSelect;

/** The sealed grant of an integration, as stored. */
export type SealedGrant = Pick<CredentialsRow, 'accessTokenEnc' | 'refreshTokenEnc' | 'accessExpiresAt' | 'refreshExpiresAt' | 'scope'>;

// ---- the client directory (crm's clients, from crm.client_upserted) ----

/** The person's own business: the first directory entry naming them, by company name. */
export async function findDirectoryEntryOfUser(db: DbOrTx, userId: string): Promise<DirectoryRow | null> {
  const rows = await db
    .select()
    .from(clientDirectory)
    .where(eq(clientDirectory.userId, userId))
    .orderBy(asc(clientDirectory.companyName), asc(clientDirectory.clientId))
    .limit(1);
  return rows[0] ?? null;
}

export async function findDirectoryEntry(db: DbOrTx, clientId: string): Promise<DirectoryRow | null> {
  return clientDirectoryEntry(db, clientDirectory, clientId);
}

// ---- integrations ----

export async function listIntegrationsOfClient(db: DbOrTx, clientId: string): Promise<IntegrationRow[]> {
  return db.select().from(clientIntegrations).where(eq(clientIntegrations.clientId, clientId));
}

export async function findIntegrationOfClient(
  db: DbOrTx,
  clientId: string,
  provider: IntegrationType,
): Promise<IntegrationRow | undefined> {
  const rows = await db
    .select()
    .from(clientIntegrations)
    .where(and(eq(clientIntegrations.clientId, clientId), eq(clientIntegrations.integrationType, provider)));
  return rows[0];
}

export async function findIntegration(db: DbOrTx, integrationId: string): Promise<IntegrationRow | undefined> {
  const [row] = await db.select().from(clientIntegrations).where(eq(clientIntegrations.id, integrationId));
  return row;
}

/** Connect (or connect again): active, reconnection cleared, the organisation's name merged into its data. */
export async function upsertConnectedIntegration(
  tx: DbOrTx,
  v: { clientId: string; provider: IntegrationType; companyName: string | null; connectedBy: string },
): Promise<IntegrationRow> {
  const [row] = await tx
    .insert(clientIntegrations)
    .values({
      clientId: v.clientId,
      integrationType: v.provider,
      isActive: true,
      integrationData: { company_name: v.companyName },
      connectedBy: v.connectedBy,
      connectedAt: new Date(),
    })
    .onConflictDoUpdate({
      target: [clientIntegrations.clientId, clientIntegrations.integrationType],
      set: {
        isActive: true,
        needsReconnect: false,
        lastSyncError: null,
        integrationData: sql`${clientIntegrations.integrationData} || ${JSON.stringify({ company_name: v.companyName })}::jsonb`,
        connectedBy: v.connectedBy,
        connectedAt: sql`now()`,
        updatedAt: sql`now()`,
      },
    })
    .returning();
  return row!;
}

export async function setLastSyncJob(tx: DbOrTx, integrationId: string, jobId: string): Promise<void> {
  await tx
    .update(clientIntegrations)
    .set({ lastSyncJobId: jobId, updatedAt: sql`now()` })
    .where(eq(clientIntegrations.id, integrationId));
}

export async function recordSyncResult(tx: DbOrTx, integrationId: string, data: IntegrationData, syncedAt: Date): Promise<void> {
  await tx
    .update(clientIntegrations)
    .set({ integrationData: data, lastSyncAt: syncedAt, lastSyncError: null, updatedAt: sql`now()` })
    .where(eq(clientIntegrations.id, integrationId));
}

/** A failed sync or refresh: its reason kept (300 characters), and "needs reconnecting" when the grant is gone. */
export async function recordSyncError(tx: DbOrTx, integrationId: string, detail: string, needsReconnect: boolean): Promise<void> {
  await tx
    .update(clientIntegrations)
    .set({ lastSyncError: detail.slice(0, 300), needsReconnect: needsReconnect ? true : undefined, updatedAt: sql`now()` })
    .where(eq(clientIntegrations.id, integrationId));
}

export async function markDisconnected(tx: DbOrTx, integrationId: string): Promise<void> {
  await tx
    .update(clientIntegrations)
    .set({ isActive: false, needsReconnect: false, updatedAt: sql`now()` })
    .where(eq(clientIntegrations.id, integrationId));
}

// ---- credentials ----

export async function upsertCredentials(
  tx: DbOrTx,
  integrationId: string,
  creds: SealedGrant & { externalId: string; connectionId: string | null },
): Promise<void> {
  await tx
    .insert(integrationCredentials)
    .values({ integrationId, ...creds })
    .onConflictDoUpdate({ target: integrationCredentials.integrationId, set: { ...creds, updatedAt: sql`now()` } });
}

export async function findCredentials(db: DbOrTx, integrationId: string): Promise<CredentialsRow | undefined> {
  const [cred] = await db.select().from(integrationCredentials).where(eq(integrationCredentials.integrationId, integrationId));
  return cred;
}

/** The grant, its row locked until the transaction ends (two workers never spend one refresh token). */
export async function lockCredentials(tx: Tx, integrationId: string): Promise<CredentialsRow | undefined> {
  const [cred] = await tx
    .select()
    .from(integrationCredentials)
    .where(eq(integrationCredentials.integrationId, integrationId))
    .for('update');
  return cred;
}

export async function storeRefreshedGrant(tx: DbOrTx, integrationId: string, grant: SealedGrant): Promise<void> {
  await tx
    .update(integrationCredentials)
    .set({ ...grant, updatedAt: sql`now()` })
    .where(eq(integrationCredentials.integrationId, integrationId));
}

export async function deleteCredentials(tx: DbOrTx, integrationId: string): Promise<CredentialsRow | undefined> {
  const [cred] = await tx.delete(integrationCredentials).where(eq(integrationCredentials.integrationId, integrationId)).returning();
  return cred;
}

/** Every active grant that is not waiting for a reconnection, with its refresh expiry and last change. */
export async function listLiveGrants(db: DbOrTx) {
  return db
    .select({
      integration: clientIntegrations,
      refreshExpiresAt: integrationCredentials.refreshExpiresAt,
      updatedAt: integrationCredentials.updatedAt,
    })
    .from(integrationCredentials)
    .innerJoin(clientIntegrations, eq(clientIntegrations.id, integrationCredentials.integrationId))
    .where(and(eq(clientIntegrations.isActive, true), eq(clientIntegrations.needsReconnect, false)));
}

export async function recordKeepAlive(
  db: DbOrTx,
  integrationId: string,
  at: Date,
  outcome: 'refreshed' | 'refused' | 'unavailable',
): Promise<void> {
  await db
    .update(integrationCredentials)
    .set({ keepAliveAt: at, keepAliveOutcome: outcome })
    .where(eq(integrationCredentials.integrationId, integrationId));
}

// ---- OAuth states ----

/** States more than a day past their expiry are of no use even for diagnosis. */
export async function deleteStaleStates(db: DbOrTx): Promise<void> {
  await db.delete(oauthStates).where(lt(oauthStates.expiresAt, sql`now() - interval '1 day'`));
}

export async function insertState(db: DbOrTx, row: typeof oauthStates.$inferInsert): Promise<void> {
  await db.insert(oauthStates).values(row);
}

/** Spend a state: only one that is ours, for this provider, unexpired and unused; null otherwise. */
export async function spendState(db: DbOrTx, stateHash: string, provider: IntegrationType): Promise<OAuthStateRow | null> {
  const spent = await db
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
  return spent[0] ?? null;
}

// ---- sync jobs ----

export async function insertSyncJob(tx: DbOrTx, row: { jobId: string; integrationId: string; requestedBy: string }): Promise<void> {
  await tx.insert(syncJobs).values(row);
}

/** A sync job with its integration and the client's directory entry (null when the directory has none). */
export async function findSyncJobWithIntegration(db: DbOrTx, jobId: string) {
  const rows = await db
    .select({ integration: clientIntegrations, directory: clientDirectory })
    .from(syncJobs)
    .innerJoin(clientIntegrations, eq(clientIntegrations.id, syncJobs.integrationId))
    .leftJoin(clientDirectory, eq(clientDirectory.clientId, clientIntegrations.clientId))
    .where(eq(syncJobs.jobId, jobId));
  return rows[0] ?? null;
}

export async function findSyncJobRetryAt(db: DbOrTx, jobId: string): Promise<Date | null> {
  const [job] = await db.select({ retryAt: syncJobs.retryAt }).from(syncJobs).where(eq(syncJobs.jobId, jobId));
  return job?.retryAt ?? null;
}

/** The job waits until `at` (the provider's 429 or our budget): recorded with why, counted; the job row returned. */
export async function deferSyncJob(db: DbOrTx, jobId: string, at: Date, reason: string) {
  const [job] = await db
    .update(syncJobs)
    .set({ retryAt: at, retryReason: reason, deferrals: sql`${syncJobs.deferrals} + 1` })
    .where(eq(syncJobs.jobId, jobId))
    .returning();
  return job ?? null;
}

// ---- the provider call budget ----

/**
 * Take one call from an organisation's budget (a sliding minute and day, counted in provider_calls):
 * null when the call may go now (and it is recorded), else when the next call fits. An advisory lock
 * per organisation serialises the check-and-record across every replica.
 */
export async function takeProviderCall(
  db: Db,
  provider: IntegrationType,
  organisation: string,
  budget: CallBudget,
  now: Date,
): Promise<Date | null> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`integrations-budget:${provider}:${organisation}`}))`);
    const minuteFrom = new Date(now.getTime() - MINUTE_MS);
    const dayFrom = new Date(now.getTime() - DAY_MS);
    await tx.execute(
      sql`delete from integrations.provider_calls where provider = ${provider} and organisation = ${organisation} and at <= ${dayFrom}`,
    );
    // The perMinute-th newest call of the minute (and perDay-th of the day) is the one whose leaving frees a slot.
    const res = await tx.execute<{ minute_block: Date | string | null; day_block: Date | string | null }>(sql`
      select
        (select at from integrations.provider_calls
          where provider = ${provider} and organisation = ${organisation} and at > ${minuteFrom}
          order by at desc offset ${budget.perMinute - 1} limit 1) as minute_block,
        (select at from integrations.provider_calls
          where provider = ${provider} and organisation = ${organisation} and at > ${dayFrom}
          order by at desc offset ${budget.perDay - 1} limit 1) as day_block`);
    const row = res.rows[0];
    const blocks = [
      row?.minute_block ? new Date(row.minute_block).getTime() + MINUTE_MS : 0,
      row?.day_block ? new Date(row.day_block).getTime() + DAY_MS : 0,
    ];
    const at = Math.max(...blocks);
    if (at > now.getTime()) return new Date(at);
    await tx.execute(
      sql`insert into integrations.provider_calls (provider, organisation, at) values (${provider}, ${organisation}, ${now})`,
    );
    return null;
  });
}
