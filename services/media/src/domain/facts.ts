import { DOCUMENT_TYPES, LIMITS, PACKAGES } from '@countinghouse/proto';

/** The practice's public contact details (the gateway's public config). */
export interface PracticeContact {
  name: string;
  phone: string;
  email: string;
}

/** Everything a script may say about the practice: the only facts a generator is given. */
export interface PracticeFacts {
  name: string;
  phone: string;
  email: string;
  audiences: string[];
  packages: { name: string; monthlyFee: number }[];
  services: string[];
  websiteSteps: string[];
}

const gbp = (n: number) => `£${n}`;

export const DEFAULT_PRACTICE: PracticeContact = {
  name: 'Countinghouse Accountants',
  phone: '020 7946 0321',
  email: 'hello@countinghouse.co.uk',
};

/** The facts come from the product itself (proto constants), so a script never invents a price. */
export function buildPracticeFacts(contact: PracticeContact = DEFAULT_PRACTICE): PracticeFacts {
  return {
    name: contact.name,
    phone: contact.phone,
    email: contact.email,
    audiences: ['sole traders', 'partnerships', 'limited companies'],
    packages: PACKAGES.map((p) => ({ name: p.name, monthlyFee: p.monthlyFee })),
    services: DOCUMENT_TYPES.filter((t) => t.value !== 'general' && t.value !== 'engagement').map((t) => t.label),
    websiteSteps: [
      'Choose an accounting package on the package selection page and see its monthly fee',
      'Sign up and pay the monthly subscription securely by card',
      `A personal accountant is assigned within ${LIMITS.accountantAssignedWithinHours} hours`,
      'Use the client dashboard to see the subscription and the accountant',
      `Upload documents (PDF, images, spreadsheets, up to ${LIMITS.maxUploadBytes / 1_048_576} MB each) by document type`,
      'Connect Xero or QuickBooks so bookkeeping data syncs automatically',
    ],
  };
}

export function packagesLine(f: PracticeFacts): string {
  return f.packages.map((p) => `${p.name} ${gbp(p.monthlyFee)} a month`).join('; ');
}

export function cheapestFee(f: PracticeFacts): number {
  return Math.min(...f.packages.map((p) => p.monthlyFee));
}
