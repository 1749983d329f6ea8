import { subscribe, type ConsumerRuntime, type DbOrTx, type EventOf } from '@countinghouse/kit';
import { AML_EVIDENCE_DOCUMENT_TYPE, DEADLINE_KINDS, formatGBP, RISK_LABELS, RISK_LEVELS } from '@countinghouse/proto';
import { getClientByUserId } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import { attachOrphanEntries, changeSignals, insertTimelineEntry, isUuid } from '../db/workspace.js';

export const TIMELINE_CONSUMER = 'crm.timeline';

const TIMELINE_EVENT_TYPES = [
  'identity.user_registered',
  'engagement.letter_sent',
  'engagement.letter_signed',
  'documents.document_uploaded',
  'deadlines.deadline_done',
  'deadlines.deadline_reopened',
  'deadlines.deadline_overdue',
  'aml.file_approved',
  'aml.file_submitted',
  'aml.file_returned',
  'aml.file_deleted',
  'crm.task_done',
] as const;
type TimelineEvent = EventOf<(typeof TIMELINE_EVENT_TYPES)[number]>;

const kindLabel = (k: string) => DEADLINE_KINDS.find((x) => x.value === k)?.label ?? k;
const riskLabel = (level: string) => {
  const known = RISK_LEVELS.find((l) => l === level);
  return known ? RISK_LABELS[known] : level;
};

/**
 * The Timeline read model and the record's badges (decision 142): each event a service publishes about
 * a client becomes one entry (once per event id), in the event's own transaction with its idempotency
 * record. Nothing here calls another service.
 */
export async function applyTimelineEvent(tx: DbOrTx, e: TimelineEvent): Promise<void> {
  const base = { sourceId: e.id, at: new Date(e.occurredAt) };
  switch (e.type) {
    case 'identity.user_registered': {
      const d = e.data;
      const client = await getClientByUserId(tx, d.userId);
      const name = [d.firstName, d.lastName].filter(Boolean).join(' ') || null;
      await insertTimelineEntry(tx, {
        ...base,
        clientId: client?.id ?? null,
        userId: d.userId,
        kind: 'signed_up',
        summary: `Signed up${name ? `: ${name}` : ''}${d.companyName ? ` (${d.companyName})` : ''}`,
        actorName: name,
        source: 'identity',
      });
      return;
    }
    case 'engagement.letter_sent': {
      const d = e.data;
      if (!isUuid(d.clientId)) return;
      await insertTimelineEntry(tx, {
        ...base,
        clientId: d.clientId,
        kind: 'letter_sent',
        summary: `Engagement letter version ${d.version} sent for signature (${d.packageName})`,
        actorName: null,
        source: 'engagement',
        ref: { type: 'letter', id: d.letterId },
      });
      await changeSignals(tx, d.clientId, { letter: 'awaiting_signature' });
      return;
    }
    case 'engagement.letter_signed': {
      const d = e.data;
      if (!isUuid(d.clientId)) return;
      await insertTimelineEntry(tx, {
        ...base,
        // When it was signed: a letter signed before the first payment reaches crm after it (issue 33).
        at: new Date(d.signedAt),
        clientId: d.clientId,
        kind: 'letter_signed',
        summary: `Engagement letter version ${d.version} signed by ${d.signerName}`,
        actorName: d.signerName,
        source: 'engagement',
        ref: { type: 'letter', id: d.letterId },
      });
      await changeSignals(tx, d.clientId, { letter: 'signed' });
      return;
    }
    case 'documents.document_uploaded': {
      const d = e.data;
      // Identity evidence belongs to the AML file, never to the client's documents.
      if (!isUuid(d.clientId) || d.documentType === AML_EVIDENCE_DOCUMENT_TYPE) return;
      await insertTimelineEntry(tx, {
        ...base,
        clientId: d.clientId,
        kind: 'document_uploaded',
        summary: `Document uploaded: ${d.filename}`,
        actorName: null,
        source: 'documents',
        ref: { type: 'document', id: d.documentId },
      });
      return;
    }
    case 'deadlines.deadline_done': {
      const d = e.data;
      if (!isUuid(d.clientId)) return;
      const how = d.filedByPreviousAgent ? ', filed by the previous agent' : '';
      const ref = d.reference ? `, reference ${d.reference}` : '';
      await insertTimelineEntry(tx, {
        ...base,
        clientId: d.clientId,
        kind: 'deadline_done',
        summary: `${kindLabel(d.kind)} ${d.period} done${how}${ref}`,
        actorName: d.doneByName,
        source: 'deadlines',
        ref: { type: 'deadline', id: d.deadlineId },
      });
      await changeSignals(tx, d.clientId, { overdueRemove: d.deadlineId });
      return;
    }
    case 'deadlines.deadline_reopened': {
      const d = e.data;
      if (!isUuid(d.clientId)) return;
      await insertTimelineEntry(tx, {
        ...base,
        clientId: d.clientId,
        kind: 'deadline_reopened',
        summary: `${kindLabel(d.kind)} ${d.period} reopened`,
        actorName: d.reopenedByName,
        source: 'deadlines',
        ref: { type: 'deadline', id: d.deadlineId },
      });
      if (d.dueOn < e.occurredAt.slice(0, 10)) await changeSignals(tx, d.clientId, { overdueAdd: d.deadlineId });
      return;
    }
    case 'deadlines.deadline_overdue': {
      if (isUuid(e.data.clientId)) await changeSignals(tx, e.data.clientId, { overdueAdd: e.data.deadlineId });
      return;
    }
    case 'aml.file_approved': {
      const d = e.data;
      if (!isUuid(d.clientId)) return;
      await insertTimelineEntry(tx, {
        ...base,
        clientId: d.clientId,
        kind: 'aml_approved',
        summary: `Due diligence approved (version ${d.version}, ${riskLabel(d.riskLevel)} risk)`,
        actorName: d.approvedByName,
        source: 'aml',
      });
      await changeSignals(tx, d.clientId, { dueDiligence: 'approved' });
      return;
    }
    case 'aml.file_submitted': {
      if (isUuid(e.data.clientId)) await changeSignals(tx, e.data.clientId, { dueDiligenceUnlessApproved: 'awaiting_approval' });
      return;
    }
    case 'aml.file_returned': {
      const d = e.data;
      if (!isUuid(d.clientId)) return;
      await insertTimelineEntry(tx, {
        ...base,
        clientId: d.clientId,
        kind: 'aml_returned',
        summary: `Due diligence version ${d.version} returned for changes`,
        actorName: d.returnedByName,
        source: 'aml',
      });
      await changeSignals(tx, d.clientId, { dueDiligenceUnlessApproved: 'outstanding' });
      return;
    }
    case 'aml.file_deleted': {
      if (isUuid(e.data.clientId)) await changeSignals(tx, e.data.clientId, { dueDiligence: 'outstanding' });
      return;
    }
    case 'crm.task_done': {
      const d = e.data;
      if (!isUuid(d.clientId)) return;
      await insertTimelineEntry(tx, {
        ...base,
        clientId: d.clientId,
        kind: 'task_done',
        summary: `Task done: ${d.title}`,
        actorName: d.doneByName,
        source: 'crm',
        ref: { type: 'task', id: d.taskId },
      });
      return;
    }
  }
}

type BillingEvent = EventOf<
  'billing.subscription_activated' | 'billing.subscription_updated' | 'billing.payment_failed' | 'billing.subscription_cancelled'
>;

/**
 * billing's events on the Timeline, entered by crm's billing consumer once the client record exists (the
 * first payment creates it): the person's earlier entries (signed up) join the record then.
 */
export async function enterBillingOnTimeline(tx: DbOrTx, e: BillingEvent, clientId: string): Promise<void> {
  await attachOrphanEntries(tx, e.data.userId, clientId);
  const base = { sourceId: e.id, at: new Date(e.occurredAt), clientId, actorName: null, source: 'billing' };
  const d = e.data;
  const fee = `${formatGBP(d.monthlyFee)} a month`;
  if (e.type === 'billing.subscription_activated')
    await insertTimelineEntry(tx, { ...base, kind: 'payment', summary: `Paid: ${d.packageName} subscription started (${fee})` });
  else if (e.type === 'billing.subscription_updated' && e.data.reason === 'renewed')
    await insertTimelineEntry(tx, { ...base, kind: 'payment', summary: `Paid: ${d.packageName} renewed (${fee})` });
  else if (e.type === 'billing.subscription_updated' && e.data.reason === 'package_changed')
    await insertTimelineEntry(tx, {
      ...base,
      kind: 'payment',
      summary: `Package changed${e.data.previousPackageName ? ` from ${e.data.previousPackageName}` : ''} to ${d.packageName} (${fee})`,
    });
  else if (e.type === 'billing.payment_failed')
    await insertTimelineEntry(tx, { ...base, kind: 'payment_failed', summary: `Payment failed: ${formatGBP(e.data.amount)}` });
  else if (e.type === 'billing.subscription_cancelled')
    await insertTimelineEntry(tx, { ...base, kind: 'subscription_cancelled', summary: `Subscription cancelled (${d.packageName})` });
}

export async function subscribeTimelineConsumer(runtime: ConsumerRuntime): Promise<void> {
  await subscribe(runtime, {
    group: TIMELINE_CONSUMER,
    types: TIMELINE_EVENT_TYPES,
    schema: SCHEMA,
    handler: (e, tx) => applyTimelineEvent(tx, e),
  });
}
