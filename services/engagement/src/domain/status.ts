import type { LetterStatus } from '@countinghouse/proto';

export interface VersionFacts {
  version: number;
  signedAt: Date | null;
}

/**
 * A letter version's status: the newest version is awaiting signature or signed; every older one is
 * superseded (a signed older one keeps its signature and stays in the documents).
 */
export function versionStatus(v: VersionFacts, newestVersion: number): LetterStatus {
  if (v.version < newestVersion) return 'superseded';
  return v.signedAt ? 'signed' : 'awaiting_signature';
}

/** A client's status: not sent when no letter exists, else its newest version's. */
export function clientStatus(newest: VersionFacts | null): LetterStatus {
  if (!newest) return 'not_sent';
  return versionStatus(newest, newest.version);
}

/** Whether a client change calls for a new letter version, and why. */
export function letterNeeded(
  client: { userId: string | null; packageName: string | null; subscriptionStatus: string },
  newest: { packageName: string } | null,
): 'onboarding' | 'package_changed' | null {
  if (!client.userId || !client.packageName || client.subscriptionStatus === 'cancelled') return null;
  if (!newest) return 'onboarding';
  return newest.packageName !== client.packageName ? 'package_changed' : null;
}
