import { AppError } from '@countinghouse/kit';
import { businessTypeForCompanyType, DEADLINES_MESSAGES, validateCompanyNumber, type CompanyLookup } from '@countinghouse/proto';
import { CompaniesHouseError } from '../adapters/companies-house/client.js';
import type { DeadlinesDeps } from './deps.js';

/**
 * One company from the public register by its number, for the sign-up form (issue 33): the registered
 * name to fill in, its status, and the business type it is. Public (the visitor has no account yet) and
 * rate limited per address at the gateway; it answers only what Companies House publishes to anyone, and
 * writes nothing.
 */
export async function lookupCompany(deps: Pick<DeadlinesDeps, 'companiesHouse'>, raw: string): Promise<CompanyLookup> {
  const n = validateCompanyNumber(raw);
  if (!n.ok) throw new AppError('VALIDATION_FAILED', n.message, [{ path: '/company_number', message: n.message }]);
  if (!deps.companiesHouse) throw new AppError('NOT_CONFIGURED', DEADLINES_MESSAGES.lookupNotAvailable);
  try {
    const c = await deps.companiesHouse.companyProfile(n.value);
    return {
      company_number: c.companyNumber,
      company_name: c.companyName,
      company_status: c.companyStatus,
      company_type: c.companyType,
      business_type: businessTypeForCompanyType(c.companyType),
      incorporated_on: c.dateOfCreation,
    };
  } catch (err) {
    if (err instanceof CompaniesHouseError && err.kind === 'not_found') {
      throw new AppError('NOT_FOUND', DEADLINES_MESSAGES.companyNotFound, [
        { path: '/company_number', message: DEADLINES_MESSAGES.companyNotFound },
      ]);
    }
    if (err instanceof CompaniesHouseError) throw new AppError('UPSTREAM_UNAVAILABLE', DEADLINES_MESSAGES.lookupNotAvailable);
    throw err;
  }
}
