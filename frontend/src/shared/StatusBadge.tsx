import { BADGE_COLOURS, type BadgeTone } from '../app/theme';

/**
 * One meaning, one colour, on every page (issue 22): statuses of subscriptions, clients, leads,
 * tasks, upgrades, invitations and users, and people's roles. Unknown values are grey.
 * Overdue (owed) is red; cancelled (ended) is purple, so the two never look alike.
 */
const STATUS_TONES: Record<string, BadgeTone> = {
  // subscriptions and clients
  active: 'green',
  pending: 'amber',
  overdue: 'red',
  cancelled: 'purple',
  // payments, tasks, upgrades, invitations, accounts
  paid: 'green',
  failed: 'red',
  completed: 'green',
  approved: 'green',
  accepted: 'green',
  in_progress: 'blue',
  open: 'amber',
  rejected: 'red',
  declined: 'red',
  expired: 'grey',
  revoked: 'grey',
  inactive: 'grey',
  locked: 'red',
  // roles
  admin: 'blue',
  manager: 'blue',
  staff: 'blue',
  accountant: 'blue',
  client: 'grey',
};

/** "in_progress" → "in progress" (shown with a capital first letter by the stylesheet). */
export function statusLabel(status: string): string {
  return status.replace(/_/g, ' ');
}

interface Props {
  status: string;
  /** The text shown, when it differs from the status' own label. */
  children?: string;
  tone?: BadgeTone;
  className?: string;
}

export function StatusBadge({ status, children, tone, className }: Props) {
  const c = BADGE_COLOURS[tone ?? STATUS_TONES[status] ?? 'grey'];
  return (
    <span
      className={`status-badge${className ? ` ${className}` : ''}`}
      data-status={status}
      style={{ color: c.color, background: c.background, borderColor: c.border }}
    >
      {children ?? statusLabel(status)}
    </span>
  );
}
