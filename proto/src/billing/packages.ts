import { PACKAGES, type PackageName } from '../constants.js';

/**
 * The package catalogue: the spec's seven packages and fees (constants.ts) with the words we show.
 * Browser-safe and free of TypeBox so the public pages can import it without the schema builder.
 */
export interface PackageInfo {
  name: PackageName;
  /** GBP per month. */
  monthlyFee: number;
  /** Who it is for, one line. */
  summary: string;
  features: readonly string[];
  /** Shown first on the package page. */
  isFeatured: boolean;
}

const DETAILS: Record<PackageName, Omit<PackageInfo, 'name' | 'monthlyFee'>> = {
  'Sole Trader Package': {
    summary: 'For self-employed people who want their tax return off their mind.',
    features: [
      'Self Assessment tax return filed for you',
      'Bookkeeping software set up and checked quarterly',
      'Making Tax Digital for Income Tax ready',
      'Expense and allowance review',
      'E-mail support from your own accountant',
    ],
    isFeatured: false,
  },
  'Partnership Package': {
    summary: 'For partnerships that need the partnership return and each partner covered.',
    features: [
      'Partnership tax return (SA800)',
      'Self Assessment returns for two partners',
      'Profit share statements',
      'Quarterly bookkeeping review',
      'E-mail and phone support',
    ],
    isFeatured: false,
  },
  'Limited Company Starter': {
    summary: 'For a new limited company finding its feet.',
    features: [
      'Year-end accounts filed at Companies House',
      'Corporation Tax return (CT600)',
      'Confirmation statement',
      "Director's Self Assessment return",
      'Registered office address',
    ],
    isFeatured: false,
  },
  Growth: {
    summary: 'For a trading company with staff and VAT.',
    features: [
      'Everything in Limited Company Starter',
      'Quarterly VAT returns (Making Tax Digital)',
      'Payroll for up to 5 employees',
      'Monthly bookkeeping review',
      'Quarterly management accounts',
    ],
    isFeatured: true,
  },
  Scale: {
    summary: 'For a growing team that wants numbers every month.',
    features: [
      'Everything in Growth',
      'Payroll for up to 15 employees',
      'Monthly management accounts',
      'CIS returns if you work in construction',
      'Cash-flow forecast each quarter',
    ],
    isFeatured: false,
  },
  Professional: {
    summary: 'For established businesses that want an adviser, not just a filer.',
    features: [
      'Everything in Scale',
      'Payroll for up to 30 employees',
      'Quarterly planning meeting with your accountant',
      'Tax planning for directors and shareholders',
      'Priority phone support',
    ],
    isFeatured: false,
  },
  Enterprise: {
    summary: 'For larger or group businesses with more moving parts.',
    features: [
      'Everything in Professional',
      'Payroll for up to 50 employees',
      'Group and multi-entity accounts',
      'Board-ready monthly reporting',
      'A named senior accountant and a deputy',
    ],
    isFeatured: false,
  },
};

export const PACKAGE_CATALOGUE: readonly PackageInfo[] = PACKAGES.map((p) => ({
  name: p.name,
  monthlyFee: p.monthlyFee,
  ...DETAILS[p.name],
}));

export function findPackage(name: string | null | undefined): PackageInfo | null {
  return PACKAGE_CATALOGUE.find((p) => p.name === name) ?? null;
}

export function isPackageName(name: string): name is PackageName {
  return PACKAGES.some((p) => p.name === name);
}
