/**
 * Terms before payment (issue 33). crm creates the client record only after the first payment (spec
 * section 7), yet the client accepts the engagement letter before paying. Until crm's record exists
 * the letter belongs to a provisional client, `prospect:<user id>`, made from the sign-up
 * (identity.user_registered). When crm publishes the client for that user, the provisional key is
 * replaced once by crm's id (the letter's text, signature and PDF unchanged: migration 0002) and the
 * signed letter goes to documents then.
 */
export const PROSPECT_PREFIX = 'prospect:';

export function prospectId(userId: string): string {
  return `${PROSPECT_PREFIX}${userId}`;
}

export function isProspect(clientId: string): boolean {
  return clientId.startsWith(PROSPECT_PREFIX);
}

/** The status a provisional client holds in the directory (no subscription yet). */
export const PROSPECT_STATUS = 'prospect';
