import { AppError, auditActor, enqueueEvent, type DbOrTx, type Principal } from '@countinghouse/kit';
import {
  RETENTION_MINIMUMS,
  enGbDate,
  londonDate,
  type Actor,
  type ClientRetention,
  type ClientRetentionBody,
  type RetentionRecordType,
  type RetentionRuleBody,
  type RetentionRun,
  type RetentionSchedule,
} from '@countinghouse/proto';
import { randomUUID } from 'node:crypto';
import {
  acspVerificationsBefore,
  answersOf,
  chainSize,
  chainsWithEntriesBefore,
  eraseChainPrefix,
  lockChain,
  recordErased,
  insertRun,
  readClientRetention,
  readRules,
  recentRuns,
  reportOf,
  retentionCandidates,
  upsertClientRetention,
  writeRule,
  type ClientRetentionRow,
} from '../db/queries.js';
import { SCHEMA, type retentionRuns } from '../db/schema.js';
import { PRACTICE_CHAIN } from '../domain/chain.js';
import { addYears, decideExpired, effectiveRules, ruleProblem, type Decision, type Rule } from '../domain/retention.js';
import { appendEntry } from './audit.js';
import { SYSTEM_ACTOR, type RecordsDeps } from './deps.js';

export async function getSchedule(deps: RecordsDeps): Promise<RetentionSchedule> {
  const stored = await readRules(deps.db);
  return {
    rules: effectiveRules(stored).map((r) => {
      const min = RETENTION_MINIMUMS[r.recordType];
      const s = stored.find((x) => x.recordType === r.recordType);
      return {
        record_type: r.recordType,
        label: min.label,
        years: r.years,
        trigger: r.trigger,
        minimum_years: min.years,
        minimum_trigger: min.trigger,
        basis: min.basis,
        updated_by_name: s?.updatedByName ?? null,
        updated_at: s?.updatedAt.toISOString() ?? null,
      };
    }),
  };
}

/** An administrator sets a record type's period and trigger, within the legal minimum. */
export async function changeRule(deps: RecordsDeps, p: Principal, recordType: RetentionRecordType, body: RetentionRuleBody) {
  const problem = ruleProblem(recordType, body.years, body.trigger);
  if (problem) throw new AppError('VALIDATION_FAILED', problem, [{ path: 'years', message: problem }]);
  await writeRule(deps.db, { recordType, years: body.years, trigger: body.trigger, updatedById: p.id, updatedByName: p.name || p.id });
  return getSchedule(deps);
}

function toClientRetention(clientId: string, r: ClientRetentionRow | null): ClientRetention {
  return {
    client_id: clientId,
    company_name: r?.companyName ?? null,
    relationship_ended_on: r?.relationshipEndedOn ?? null,
    legal_hold: r?.legalHold ?? false,
    hold_reason: r?.holdReason ?? null,
  };
}

export async function getClientRetention(deps: RecordsDeps, clientId: string): Promise<ClientRetention> {
  return toClientRetention(clientId, await readClientRetention(deps.db, clientId));
}

/** The relationship's end date (by hand: crm's status no longer moves it) and the legal hold. */
export async function changeClientRetention(deps: RecordsDeps, _p: Principal, clientId: string, b: ClientRetentionBody) {
  await deps.db.transaction(async (tx) => {
    const cur = await readClientRetention(tx, clientId, { lock: true });
    await upsertClientRetention(tx, {
      clientId,
      companyName: cur?.companyName ?? null,
      userId: cur?.userId ?? null,
      status: cur?.status ?? null,
      relationshipEndedOn: b.relationship_ended_on !== undefined ? b.relationship_ended_on : (cur?.relationshipEndedOn ?? null),
      endedManually: b.relationship_ended_on !== undefined ? true : (cur?.endedManually ?? false),
      legalHold: b.legal_hold ?? cur?.legalHold ?? false,
      holdReason: b.hold_reason !== undefined ? b.hold_reason : (cur?.holdReason ?? null),
    });
  });
  return getClientRetention(deps, clientId);
}

/**
 * crm.client_upserted: a client whose subscription is cancelled has left (the relationship ends that
 * day, as the AML file counts it); one who comes back has not. A date set by hand stays.
 */
export async function followClient(
  tx: Parameters<typeof upsertClientRetention>[0],
  d: { clientId: string; companyName: string; userId: string | null; subscriptionStatus: string },
  occurredAt: string,
) {
  const cur = await readClientRetention(tx, d.clientId, { lock: true });
  let ended = cur?.relationshipEndedOn ?? null;
  if (!cur?.endedManually) {
    if (d.subscriptionStatus === 'cancelled') ended ??= londonDate(new Date(occurredAt));
    else ended = null;
  }
  await upsertClientRetention(tx, {
    clientId: d.clientId,
    companyName: d.companyName,
    userId: d.userId,
    status: d.subscriptionStatus,
    relationshipEndedOn: ended,
    endedManually: cur?.endedManually ?? false,
    legalHold: cur?.legalHold ?? false,
    holdReason: cur?.holdReason ?? null,
  });
}

/**
 * The retention run for a day: decide what has expired and, unless a dry run, ask each owning service
 * to erase it (one records.erase_requested per client and record type, in the run's transaction). The
 * services answer with <service>.records_erased, which fill the run's report.
 */
export async function runRetention(deps: RecordsDeps, o: { day?: string; dryRun: boolean; by?: Principal }): Promise<RetentionRun> {
  const day = o.day ?? londonDate(deps.now());
  const rules: Rule[] = effectiveRules(await readRules(deps.db));
  const candidates = await retentionCandidates(
    deps.db,
    rules.some((r) => r.trigger === 'record_date'),
  );
  const decided = decideExpired(
    rules,
    candidates.map((c) => ({
      clientId: c.clientId,
      companyName: c.companyName,
      relationshipEndedOn: c.relationshipEndedOn,
      legalHold: c.legalHold,
    })),
    day,
  );
  const decisions = await refine(deps, decided, rules, day);
  const id = randomUUID();
  const actor = o.by ? auditActor(o.by) : SYSTEM_ACTOR;
  const run = await deps.db.transaction(async (tx) => {
    const saved = await insertRun(tx, {
      id,
      day,
      dryRun: o.dryRun,
      decisions: decisions.map((d) => ({
        client_id: d.clientId,
        company_name: d.companyName,
        record_type: d.recordType,
        recorded_before: d.recordedBefore,
        reason: d.reason,
      })),
    });
    if (!o.dryRun)
      for (const d of decisions)
        if (d.recordType === 'audit_entries') await eraseAudit(tx, id, d, actor, deps.now());
        else
          await enqueueEvent(
            tx,
            SCHEMA,
            'records.erase_requested',
            { runId: id, clientId: d.clientId, recordType: d.recordType, recordedBefore: d.recordedBefore },
            { actor, key: d.clientId },
          );
    return saved;
  });
  deps.logger.info({ runId: id, day, dryRun: o.dryRun, decisions: decisions.length }, 'retention run');
  return (await toRuns(deps, [run]))[0]!;
}

/**
 * What the records service knows more than the schedule: record-date types hold something only where
 * there is something that old. ACSP verifications (aml's announcements, kept here by day) and audit
 * chains with nothing past their period are left out, and those that have are named, so a dry run shows
 * exactly what would go. The practice's own chain (entries about no client) is under the audit rule too.
 */
async function refine(deps: RecordsDeps, decided: Decision[], rules: Rule[], day: string): Promise<Decision[]> {
  const out: Decision[] = [];
  const acsp = decided.some((d) => d.recordType === 'acsp_verifications') ? await acspVerificationsBefore(deps.db, day) : [];
  const auditRule = rules.find((r) => r.recordType === 'audit_entries')!;
  const auditBefore = auditRule.trigger === 'record_date' ? addYears(day, -auditRule.years) : null;
  const oldChains = auditBefore
    ? new Map((await chainsWithEntriesBefore(deps.db, auditBefore)).map((c) => [c.chain, c.n]))
    : new Map<string, number>();
  for (const d of decided) {
    if (d.recordType === 'acsp_verifications') {
      const mine = acsp.filter((v) => v.clientId === d.clientId && (d.recordedBefore === null || v.verifiedOn < d.recordedBefore));
      if (mine.length === 0) continue;
      const named = mine.map((v) => `${v.personName} (${enGbDate(v.verifiedOn)})`).join(', ');
      out.push({ ...d, reason: `${d.reason}: ${named}`.slice(0, 1000) });
    } else if (d.recordType === 'audit_entries') {
      const n = d.recordedBefore ? (oldChains.get(d.clientId) ?? 0) : await chainSize(deps.db, d.clientId);
      if (n > 0) out.push({ ...d, reason: `${d.reason}: ${n} entries` });
    } else out.push(d);
  }
  const practice = auditBefore ? (oldChains.get(PRACTICE_CHAIN) ?? 0) : 0;
  if (auditBefore && practice > 0)
    out.push({
      clientId: PRACTICE_CHAIN,
      companyName: 'The practice (entries about no client)',
      recordType: 'audit_entries',
      recordedBefore: auditBefore,
      reason: `Records dated before ${enGbDate(auditBefore)}: kept ${auditRule.years} years from their date: ${practice} entries`,
    });
  return out;
}

/**
 * The audit entries a decision covers go in the run's own transaction (the records service owns them):
 * the chain's oldest stretch, behind a checkpoint (the chain check still passes for what remains, and
 * still finds an altered or further removed entry), listed in the run's report, and the removal itself
 * chained into the practice's trail with the last removed hash.
 */
async function eraseAudit(tx: DbOrTx, runId: string, d: Decision, actor: Actor, now: Date) {
  await lockChain(tx, d.clientId);
  const removed = await eraseChainPrefix(tx, d.clientId, d.recordedBefore, runId);
  const items = removed ? [{ id: d.clientId, label: `Audit entries ${removed.from}–${removed.to} (${removed.count})`, files: 0 }] : [];
  await recordErased(tx, { runId, clientId: d.clientId, recordType: 'audit_entries', service: 'records', items, at: now });
  if (!removed) return;
  const whose = d.clientId === PRACTICE_CHAIN ? "the practice's chain" : `client ${d.clientId}`;
  await appendEntry(tx, {
    chain: PRACTICE_CHAIN,
    clientId: null,
    eventId: randomUUID(),
    occurredAt: now.toISOString(),
    actorKind: actor.kind,
    actorId: actor.id,
    actorName: actor.name ?? null,
    ip: actor.ip ?? null,
    action: 'records.audit_erased',
    summary: `Retention: audit entries ${removed.from}–${removed.to} of ${whose} removed; checkpoint ${removed.hash}`,
  });
}

async function toRuns(deps: RecordsDeps, runs: Array<typeof retentionRuns.$inferSelect>): Promise<RetentionRun[]> {
  const ids = runs.map((r) => r.id);
  // One snapshot: an answer commits with its report rows, and two reads side by side could count an
  // answer whose removed items the other read missed (seen once under load: four answers, three items).
  const { report, answers } = await deps.db.transaction(
    async (tx) => ({ report: await reportOf(tx, ids), answers: await answersOf(tx, ids) }),
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  return runs.map((r) => ({
    id: r.id,
    day: r.day,
    dry_run: r.dryRun,
    started_at: r.startedAt.toISOString(),
    decisions: r.decisions,
    removed: report
      .filter((x) => x.runId === r.id)
      .map((x) => ({
        client_id: x.clientId,
        record_type: x.recordType,
        item_id: x.itemId,
        label: x.label,
        files_deleted: x.filesDeleted,
        erased_at: x.erasedAt.toISOString(),
      })),
    answered: answers.filter((a) => a.runId === r.id).length,
  }));
}

export async function findRuns(deps: RecordsDeps) {
  return { runs: await toRuns(deps, await recentRuns(deps.db, 20)) };
}
