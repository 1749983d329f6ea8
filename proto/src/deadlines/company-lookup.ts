import type { BusinessType } from '../constants.js';

// The sign-up's Companies House lookup (issue 33, decision 664): what the public pages need, without
// TypeBox (its schemas are in deadlines.ts), so the home page's JavaScript stays within its budget.

/** POST, no token (sign-up), rate limited per address: one company by its number. */
export const COMPANY_LOOKUP_ROUTE = '/api/deadlines/companies-house/lookup';

export const COMPANY_LOOKUP_MESSAGES = {
  companyNotFound: 'Companies House has no company with this number',
  /** To a visitor (no staff wording). */
  lookupNotAvailable: 'We cannot look companies up at the moment: type the company name as registered',
} as const;

/**
 * Companies House company types (its API's company_type values) and the business type a sign-up takes for
 * them: companies limited by shares or guarantee and unlimited companies are limited companies here;
 * an LLP is an LLP; English and Scottish partnerships registered there are partnerships; the rest
 * (charitable incorporated organisations, overseas companies, ...) the client chooses by hand.
 */
const CH_COMPANY_TYPES: Record<string, BusinessType> = {
  ltd: 'limited',
  plc: 'limited',
  'private-unlimited': 'limited',
  'private-unlimited-nsc': 'limited',
  'private-limited-guarant-nsc': 'limited',
  'private-limited-guarant-nsc-limited-exemption': 'limited',
  'private-limited-shares-section-30-exemption': 'limited',
  llp: 'llp',
  'limited-partnership': 'partnership',
  'scottish-partnership': 'partnership',
};
export function businessTypeForCompanyType(companyType: string): BusinessType | null {
  return CH_COMPANY_TYPES[companyType] ?? null;
}
