import { enqueueEvent } from '@countinghouse/kit';
import { addAudit, claimReviewAnnouncement, reviewsFallingDue } from '../db/queries.js';
import { SCHEMA } from '../db/schema.js';
import { enGb } from '../domain/dates.js';
import type { AmlDeps } from './deps.js';

const SYSTEM = { kind: 'system' as const, id: null };
const BATCH = 200;

/**
 * The daily run: every approved file whose review falls due (AML_REVIEW_LEAD_DAYS ahead, or already
 * passed) is announced once per review date: aml.review_due (crm opens a task for the accountant,
 * notifications raise one). Claim, audit and event commit together, so a second run announces nothing.
 */
export async function runDaily(deps: AmlDeps, day?: string): Promise<{ announced: number }> {
  const today = day ?? deps.today();
  let announced = 0;
  for (;;) {
    const rows = await reviewsFallingDue(deps.db, today, BATCH);
    if (rows.length === 0) break;
    for (const r of rows) {
      const done = await deps.db.transaction(async (tx) => {
        if (!(await claimReviewAnnouncement(tx, r.clientId, r.nextReviewOn!))) return false;
        await enqueueEvent(
          tx,
          SCHEMA,
          'aml.review_due',
          {
            idempotencyKey: `aml-review:${r.clientId}:${r.nextReviewOn}`,
            clientId: r.clientId,
            clientName: r.companyName,
            version: r.version!,
            nextReviewOn: r.nextReviewOn!,
            assigneeId: r.accountantId,
            title: `AML review: ${r.companyName}`.slice(0, 200),
            description: `The anti-money-laundering due diligence of ${r.companyName} (version ${r.version}) is due for review by ${enGb(r.nextReviewOn!)} (MLR 2017 reg. 27(8)).`,
          },
          { actor: SYSTEM, key: r.clientId },
        );
        await addAudit(tx, {
          clientId: r.clientId,
          version: r.version,
          action: 'review_due',
          detail: `Review due by ${enGb(r.nextReviewOn!)}: a task was opened for the accountant`,
          actorId: null,
          actorName: 'System',
        });
        return true;
      });
      if (done) announced++;
    }
    if (rows.length < BATCH) break;
  }
  return { announced };
}
