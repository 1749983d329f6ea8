import { AppError, type Principal } from '@countinghouse/kit';
import { ENGAGEMENT_MESSAGES, findPackage, MESSAGES, type TermsReply } from '@countinghouse/proto';
import { directoryEntry, newestLetter, ownClients, setProspectPackage } from '../db/queries.js';
import { isProspect, prospectId } from '../domain/prospect.js';
import type { EngagementDeps } from './deps.js';
import { issueLetter } from './issue-letter.js';
import { toLetter } from './views.js';

/**
 * Terms before payment (issue 33): the signed-in client's letter for the package they chose, to read
 * and sign before the checkout. The newest letter is reused when it is for that package (signed: the
 * terms are accepted, nothing is sent again); otherwise a new version is made from the current
 * templates. Before the first payment the letter belongs to the provisional client made at sign-up.
 */
export async function termsFor(deps: EngagementDeps, principal: Principal, packageName: string): Promise<TermsReply> {
  const pkg = findPackage(packageName);
  if (!pkg) throw new AppError('VALIDATION_FAILED', MESSAGES.validationFailed, [{ path: '/package_name', message: 'is not a package' }]);
  return deps.db.transaction(async (tx) => {
    const mine = await ownClients(tx, principal.id);
    // crm's client (after a payment) comes first; else the provisional one from the sign-up.
    const found = mine.find((c) => !isProspect(c.clientId)) ?? mine.find((c) => c.clientId === prospectId(principal.id));
    if (!found) throw new AppError('CONFLICT', ENGAGEMENT_MESSAGES.accountNotReady);
    const client = (await directoryEntry(tx, found.clientId, { forUpdate: true }))!;
    const newest = await newestLetter(tx, client.clientId);
    if (newest && newest.packageName === pkg.name) return { letter: toLetter(newest, newest.version), accepted: !!newest.signedAt };
    if (isProspect(client.clientId)) await setProspectPackage(tx, client.clientId, pkg.name, pkg.monthlyFee);
    const letter = await issueLetter(
      deps,
      tx,
      { ...client, packageName: pkg.name, monthlyFee: pkg.monthlyFee },
      newest ? 'package_changed' : 'onboarding',
      { kind: 'user', id: principal.id, name: principal.name || principal.id },
    );
    return { letter: toLetter(letter, letter.version), accepted: false };
  });
}
