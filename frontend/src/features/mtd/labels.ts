import type { MtdExpenseCategory, MtdLedgerCategory, MtdPropertyExpense, MtdPropertyIncome } from '@countinghouse/proto';

/** HMRC's self-employment expense categories (Self Employment Business API 5.0), as the practice reads them. */
export const EXPENSE_LABEL: Record<MtdExpenseCategory, string> = {
  costOfGoods: 'Cost of goods',
  paymentsToSubcontractors: 'Payments to subcontractors',
  wagesAndStaffCosts: 'Wages and staff costs',
  carVanTravelExpenses: 'Car, van and travel',
  premisesRunningCosts: 'Premises running costs',
  maintenanceCosts: 'Repairs and maintenance',
  adminCosts: 'Phone, stationery and office',
  businessEntertainmentCosts: 'Business entertainment',
  advertisingCosts: 'Advertising',
  interestOnBankOtherLoans: 'Interest on loans',
  financeCharges: 'Bank and finance charges',
  irrecoverableDebts: 'Irrecoverable debts',
  professionalFees: 'Professional fees',
  depreciation: 'Depreciation',
  otherExpenses: 'Other expenses',
};

/** Where a ledger account's figure goes (issue 31, item 6). */
export const LEDGER_CATEGORY_LABEL: Record<MtdLedgerCategory, string> = {
  turnover: 'Turnover',
  other: 'Other income',
  ...EXPENSE_LABEL,
  exclude: 'Left out (not business income or a cost)',
};

/** UK property income (Property Business API 6.0), as a landlord's accountant reads it. */
export const PROPERTY_INCOME_LABEL: Record<MtdPropertyIncome, string> = {
  periodAmount: 'Rents and other property income',
  premiumsOfLeaseGrant: 'Premiums for the grant of a lease',
  reversePremiums: 'Reverse premiums and inducements',
  otherIncome: 'Other property income',
  taxDeducted: 'Tax deducted (non-resident landlord)',
  rentARoomRentsReceived: 'Rent-a-room: rents received',
};

/** UK property expenses (Property Business API 6.0). */
export const PROPERTY_EXPENSE_LABEL: Record<MtdPropertyExpense, string> = {
  premisesRunningCosts: 'Rent, rates, insurance, ground rents',
  repairsAndMaintenance: 'Property repairs and maintenance',
  financialCosts: 'Non-residential finance costs',
  professionalFees: 'Legal, management and professional fees',
  costOfServices: 'Costs of services provided',
  other: 'Other allowable property expenses',
  travelCosts: 'Travel costs',
  residentialFinancialCost: 'Residential finance costs (mortgage interest)',
  residentialFinancialCostsCarriedForward: 'Residential finance costs brought forward',
  rentARoomAmountClaimed: 'Rent-a-room: amount claimed',
};
