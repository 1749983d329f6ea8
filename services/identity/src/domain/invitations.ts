import { canInviteTo, LIMITS, type InvitationStatus, type Role } from '@countinghouse/proto';

export function invitationExpiry(now = new Date()): Date {
  return new Date(now.getTime() + LIMITS.invitationDays * 86_400_000);
}

/** The status people see: a pending invitation past its expiry shows as expired. */
export function effectiveStatus(status: InvitationStatus, expiresAt: Date, now = new Date()): InvitationStatus {
  if (status === 'pending' && expiresAt <= now) return 'expired';
  return status;
}

export function inviteUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/$/, '')}/staff/signup?token=${encodeURIComponent(token)}`;
}

export function invitationEmail(o: { practiceName: string; role: string; url: string; expiresAt: Date }) {
  const until = o.expiresAt.toLocaleDateString('en-GB', { day: '2-digit', month: 'short', year: 'numeric', timeZone: 'Europe/London' });
  return {
    subject: `You're invited to join ${o.practiceName} as ${o.role}`,
    text: [
      `Hello,`,
      ``,
      `You have been invited to join ${o.practiceName}'s staff portal with the role "${o.role}".`,
      `Complete your registration here: ${o.url}`,
      ``,
      `The link works once and expires on ${until}.`,
      `If you were not expecting this e-mail you can ignore it.`,
    ].join('\n'),
  };
}

/**
 * Whether an invitation may still be accepted, given its inviter now (issue #21): the inviter must still
 * be active and hold a role that may invite to the invitation's role (proto's INVITE_HIERARCHY).
 */
export function inviterStillAllows(inviter: { isActive: boolean; roles: readonly Role[] } | null, role: Role): boolean {
  return Boolean(inviter?.isActive) && canInviteTo(inviter!.roles, role);
}
