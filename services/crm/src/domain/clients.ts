import { monthlyFeeFor, PACKAGE_FILTER_TO_PACKAGE, type PackageFilter } from '@countinghouse/proto';

/** The fee a client pays follows their package; an unknown (or no) package costs the default 50. */
export function feeForPackage(packageName: string | null | undefined): number {
  return monthlyFeeFor(packageName ?? null);
}

/** The stored package name a filter entry selects ('Starter' → 'Limited Company Starter'). */
export function packageForFilter(filter: PackageFilter): string {
  return PACKAGE_FILTER_TO_PACKAGE[filter];
}

/** Trim text fields; empty strings become null for optional ones. */
export function cleanOptional(v: string | null | undefined): string | null | undefined {
  if (v === undefined) return undefined;
  if (v === null) return null;
  const t = v.trim();
  return t === '' ? null : t;
}

export function cleanRequired(v: string): string {
  return v.trim();
}

/** Case-insensitive substring pattern for ILIKE, with the LIKE wildcards in the input escaped. */
export function containsPattern(text: string): string {
  return `%${text.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Sum of monthly fees in pence-safe arithmetic (two decimals). */
export function sumFees(fees: readonly number[]): number {
  return Math.round(fees.reduce((a, f) => a + Math.round(f * 100), 0)) / 100;
}

export const CLIENT_MESSAGES = {
  notFound: 'Client not found',
  userLinked: 'Another client is already linked to this user account.',
  unknownAccountant: 'Choose an accountant from the team: this person is not an active accountant.',
} as const;
