import {
  BUSINESS_TYPE_LABELS,
  BUSINESS_TYPES,
  LEAD_STAGES,
  PACKAGES,
  formatGBP,
  type LeadStage,
  type SubscriptionStatus,
  type TaskPriority,
  type TaskStatus,
  type UpgradeStatus,
} from '@countinghouse/proto';

export const STAGE_LABELS: Record<LeadStage, string> = {
  new_enquiry: 'New Enquiry',
  qualified: 'Qualified',
  proposal_sent: 'Proposal Sent',
  negotiation: 'Negotiation',
  won: 'Won',
  lost: 'Lost',
};

/** Lead stage colours (spec: colour coded): cool for early stages, warm for late, green won, red lost. */
export const STAGE_COLOURS: Record<LeadStage, string> = {
  new_enquiry: 'blue',
  qualified: 'cyan',
  proposal_sent: 'purple',
  negotiation: 'orange',
  won: 'green',
  lost: 'red',
};

export const STAGE_OPTIONS = LEAD_STAGES.map((s) => ({ value: s, label: STAGE_LABELS[s] }));

export const BUSINESS_TYPE_OPTIONS = BUSINESS_TYPES.map((b) => ({ value: b, label: BUSINESS_TYPE_LABELS[b] }));

export const STATUS_LABELS: Record<SubscriptionStatus, string> = {
  active: 'Active',
  pending: 'Pending',
  cancelled: 'Cancelled',
  overdue: 'Overdue',
};
export const SUBSCRIPTION_STATUS_OPTIONS = (Object.keys(STATUS_LABELS) as SubscriptionStatus[]).map((s) => ({
  value: s,
  label: STATUS_LABELS[s],
}));

/** The package select of the client forms: every package with its monthly fee. */
export const PACKAGE_OPTIONS = PACKAGES.map((p) => ({ value: p.name, label: `${p.name} — ${formatGBP(p.monthlyFee)}/month` }));

export const TASK_STATUS_LABELS: Record<TaskStatus, string> = {
  pending: 'Pending',
  in_progress: 'In Progress',
  completed: 'Completed',
  cancelled: 'Cancelled',
};
export const TASK_STATUS_COLOURS: Record<TaskStatus, string> = {
  pending: 'gold',
  in_progress: 'blue',
  completed: 'green',
  cancelled: 'default',
};
export const TASK_PRIORITY_LABELS: Record<TaskPriority, string> = {
  low: 'Low',
  medium: 'Medium',
  high: 'High',
  urgent: 'Urgent',
};
export const TASK_PRIORITY_COLOURS: Record<TaskPriority, string> = {
  low: 'default',
  medium: 'blue',
  high: 'orange',
  urgent: 'red',
};

export const UPGRADE_STATUS_LABELS: Record<UpgradeStatus, string> = {
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
  completed: 'Completed',
};
export const UPGRADE_STATUS_COLOURS: Record<UpgradeStatus, string> = {
  pending: 'gold',
  approved: 'blue',
  rejected: 'red',
  completed: 'green',
};

export const humanise = (value: string) => value.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());
