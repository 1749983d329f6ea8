import { Type, type Static } from '@sinclair/typebox';

/**
 * VAT on the practice's fees (issue 33). A VAT-registered practice charges VAT at the standard rate on
 * its services (VATA 1994 s.2: 20% since 4 January 2011) and issues a VAT invoice for every taxable
 * supply to a taxable person (VAT Regulations 1995 reg. 13); reg. 14(1) lists what it shows: a
 * sequential number, the date of issue and time of supply, the supplier's name, address and VAT
 * registration number, the customer's name, a description, the net amount, the rate, and the VAT
 * payable in sterling. VAT is worked out per invoice and rounded to the nearest penny (HMRC VAT Notice
 * 700 s.17.5: rounding half a penny up is accepted). docs/decisions.md.
 */
export interface VatLines {
  net: number;
  rate: number;
  vat: number;
  gross: number;
}

/** Net, VAT and gross in pounds for a net amount at a rate in percent (0 when not registered). */
export function vatLines(net: number, ratePercent: number): VatLines {
  const netPence = Math.round(net * 100);
  const vatPence = Math.round((netPence * ratePercent) / 100);
  return { net: netPence / 100, rate: ratePercent, vat: vatPence / 100, gross: (netPence + vatPence) / 100 };
}

/** The UK standard rate, percent. */
export const UK_STANDARD_VAT_RATE = 20;

/** A UK VAT registration number as HMRC issues it: GB and 9 digits (or 12 for a branch), spaces allowed. */
export function normaliseVatNumber(raw: string): string | null {
  const s = raw.replace(/\s+/g, '').toUpperCase();
  const digits = s.startsWith('GB') ? s.slice(2) : s;
  return /^\d{9}(\d{3})?$/.test(digits) ? `GB${digits}` : null;
}

export const VAT_MESSAGES = {
  numberInvalid: 'A UK VAT number is GB and 9 digits, e.g. GB 123 4567 89.',
  addressRequired: 'A VAT invoice shows the practice’s address: please enter it.',
  rateInvalid: 'The VAT rate is a percentage between 0 and 100.',
  saved: 'VAT registration saved',
  plusVat: '+ VAT',
} as const;

/** The practice's VAT registration: null number = not registered (prices have no VAT). */
export const VatRegistrationSchema = Type.Object({
  registered: Type.Boolean(),
  vat_number: Type.Union([Type.String(), Type.Null()]),
  rate: Type.Number({ minimum: 0, maximum: 100 }),
  address: Type.String(),
  updated_at: Type.Union([Type.String(), Type.Null()]),
});
export type VatRegistration = Static<typeof VatRegistrationSchema>;

export const VatRegistrationBodySchema = Type.Object(
  {
    vat_number: Type.Union([Type.String({ maxLength: 40 }), Type.Null()]),
    rate: Type.Number({ minimum: 0, maximum: 100 }),
    address: Type.String({ maxLength: 500 }),
  },
  { additionalProperties: false },
);
export type VatRegistrationBody = Static<typeof VatRegistrationBodySchema>;

export const InvoiceSchema = Type.Object({
  id: Type.String(),
  number: Type.String(),
  kind: Type.Union([Type.Literal('invoice'), Type.Literal('credit_note')]),
  issued_at: Type.String(),
  client_name: Type.String(),
  email: Type.String(),
  description: Type.String(),
  net: Type.Number(),
  vat_rate: Type.Number(),
  vat: Type.Number(),
  gross: Type.Number(),
  vat_number: Type.Union([Type.String(), Type.Null()]),
});
export type Invoice = Static<typeof InvoiceSchema>;
export const InvoiceListSchema = Type.Object({ invoices: Type.Array(InvoiceSchema) });
export type InvoiceList = Static<typeof InvoiceListSchema>;

/** Invoice numbers: INV-000001 in one sequence (credit notes CN-000001 in their own). */
export function invoiceNumber(kind: 'invoice' | 'credit_note', n: number): string {
  return `${kind === 'invoice' ? 'INV' : 'CN'}-${String(n).padStart(6, '0')}`;
}
