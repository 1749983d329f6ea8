import { Tag } from 'antd';
import type { LeadStage, SubscriptionStatus } from '@countinghouse/proto';
import { STAGE_COLOURS, STAGE_LABELS } from '../labels';

/** Spec: an active client shows a green Active badge; any other status is shown as text. */
export function ClientStatusBadge({ status }: { status: SubscriptionStatus }) {
  if (status === 'active') {
    return (
      <Tag color="green" className="crm-badge">
        Active
      </Tag>
    );
  }
  return <span className={`crm-status-text crm-status-text--${status}`}>{status}</span>;
}

export function StageBadge({ stage }: { stage: LeadStage }) {
  return (
    <Tag color={STAGE_COLOURS[stage]} className="crm-badge" data-stage={stage}>
      {STAGE_LABELS[stage]}
    </Tag>
  );
}
