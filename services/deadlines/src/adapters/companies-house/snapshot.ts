import type { CompanyOfficer, CompanyPsc, CompanySnapshot } from '@countinghouse/proto';
import type { CompanyFacts } from '../../domain/engine.js';
import type { CompanyProfile } from './client.js';

export function snapshotOf(p: CompanyProfile, officers: CompanyOfficer[], pscs: CompanyPsc[], at: Date): CompanySnapshot {
  return {
    company_number: p.companyNumber,
    company_name: p.companyName,
    company_status: p.companyStatus,
    company_type: p.companyType,
    date_of_creation: p.dateOfCreation,
    registered_office: p.registeredOffice,
    sic_codes: p.sicCodes,
    accounting_reference_date: p.ard,
    next_accounts_period_end_on: p.nextAccountsPeriodEnd,
    next_accounts_due_on: p.nextAccountsDueOn,
    last_accounts_made_up_to: p.lastAccountsMadeUpTo,
    confirmation_statement_next_due: p.confirmationNextDue,
    confirmation_statement_next_made_up_to: p.confirmationNextMadeUpTo,
    officers,
    pscs,
    refreshed_at: at.toISOString(),
  };
}

export function companyFactsOf(s: CompanySnapshot): CompanyFacts {
  return {
    status: s.company_status,
    type: s.company_type,
    incorporatedOn: s.date_of_creation,
    ard: s.accounting_reference_date,
    nextAccountsPeriodEnd: s.next_accounts_period_end_on,
    nextAccountsDueOn: s.next_accounts_due_on,
    lastAccountsMadeUpTo: s.last_accounts_made_up_to,
    confirmationNextDue: s.confirmation_statement_next_due,
    confirmationNextMadeUpTo: s.confirmation_statement_next_made_up_to,
  };
}
