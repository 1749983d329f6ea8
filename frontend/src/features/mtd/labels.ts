import type { MtdExpenseCategory, MtdLedgerCategory } from '@countinghouse/proto';

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
