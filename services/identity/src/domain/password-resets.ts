import { LIMITS } from '@countinghouse/proto';

/** At most this many reset e-mails per account in RESET_MAIL_WINDOW_MINUTES: no mail-bombing someone's inbox. */
export const RESET_MAILS_PER_WINDOW = 3;
export const RESET_MAIL_WINDOW_MINUTES = 15;

export function resetExpiry(now = new Date()): Date {
  return new Date(now.getTime() + LIMITS.passwordResetMinutes * 60_000);
}

export function resetUrl(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/$/, '')}/reset-password?token=${encodeURIComponent(token)}`;
}

export function passwordResetEmail(o: { practiceName: string; url: string }) {
  return {
    subject: `Reset your ${o.practiceName} password`,
    text: [
      `Hello,`,
      ``,
      `Someone asked to reset the password of your ${o.practiceName} account.`,
      `Choose a new password here: ${o.url}`,
      ``,
      `The link works once and expires in ${LIMITS.passwordResetMinutes} minutes. Setting a new password signs out`,
      `every session of your account.`,
      `If you did not ask for this, ignore this e-mail: your password stays as it is.`,
    ].join('\n'),
  };
}

/** A person's password is checked as staff when they hold any role other than client. */
export function isPrivileged(roles: readonly string[]): boolean {
  return roles.some((r) => r !== 'client');
}
