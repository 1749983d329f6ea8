import { DEFAULT_REMINDER_SCHEDULE, type TemplateBody } from '@countinghouse/proto';

/**
 * The templates a new practice starts with (issue 28), editable in settings. Lead times: accounts
 * records 90 days before the Companies House filing deadline; VAT records 21 days before the return is
 * due (VAT returns and payment: one month and 7 days after the period end, VAT Notice 700/12 s. 3.1);
 * the Self Assessment questionnaire on 6 April, the first day after the tax year ends, which is 300
 * days before the 31 January online filing deadline (TMA 1970 s. 8(1D)).
 */
export function defaultTemplates(): TemplateBody[] {
  const schedule = DEFAULT_REMINDER_SCHEDULE;
  return [
    {
      name: 'Year-end records',
      items: [
        { kind: 'document', label: 'Bank statements for the year', document_type: 'bank_statements' },
        { kind: 'document', label: 'Sales invoices', document_type: 'sales_invoices' },
        { kind: 'document', label: 'Purchase receipts', document_type: 'receipts' },
        { kind: 'document', label: 'Loan statements', document_type: 'other' },
      ],
      schedule,
      deadline_kind: 'accounts',
      lead_days: 90,
    },
    {
      name: 'VAT quarter records',
      items: [
        { kind: 'document', label: 'Bank statements for the quarter', document_type: 'bank_statements' },
        { kind: 'document', label: 'Sales invoices for the quarter', document_type: 'sales_invoices' },
        { kind: 'document', label: 'Purchase receipts for the quarter', document_type: 'receipts' },
      ],
      schedule,
      deadline_kind: 'vat_return',
      lead_days: 21,
    },
    {
      name: 'Self Assessment questionnaire',
      items: [
        { kind: 'question', label: 'Employment income for the tax year (P60 figures)', document_type: null },
        { kind: 'question', label: 'Any other income (property, savings, dividends)?', document_type: null },
        { kind: 'confirm', label: 'Has your address or marital status changed this year?', document_type: null },
        { kind: 'document', label: 'P60 or P45', document_type: 'payroll' },
      ],
      schedule,
      deadline_kind: 'sa_online_return',
      lead_days: 300,
    },
    {
      name: 'Identity documents',
      items: [
        { kind: 'document', label: 'Passport or photo driving licence', document_type: 'identity_document' },
        { kind: 'document', label: 'Proof of address (dated in the last 3 months)', document_type: 'identity_document' },
      ],
      schedule,
      deadline_kind: null,
      lead_days: null,
    },
  ];
}
