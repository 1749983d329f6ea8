// The spec's enums and business constants (spec sections 3, 4 and 9). Browser-safe.
import { rolesFor } from './permissions.js';

export const ROLES = ['admin', 'manager', 'staff', 'accountant', 'client', 'mlro'] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  admin: 'Full system access',
  manager: 'Client and staff management',
  staff: 'Client support and document management',
  accountant: 'Accounting services and client consultation',
  client: 'Default role in profiles',
  mlro: 'Money Laundering Reporting Officer: approves due diligence (granted beside a staff role)',
};

/** Roles that may enter the staff portal (spec section 6). Accountant is not one. From the permissions table. */
export const STAFF_PORTAL_ROLES: readonly Role[] = rolesFor('staff_portal.sign_in');
/** Roles that may manage staff and invitations. From the permissions table. */
export const STAFF_MANAGEMENT_ROLES: readonly Role[] = rolesFor('staff.manage');
/** Roles an invitation may carry. */
export const INVITABLE_ROLES = ['admin', 'manager', 'staff', 'accountant'] as const satisfies readonly Role[];

export const DOCUMENT_TYPES = [
  { value: 'vat', label: 'VAT Returns', uploadLabel: 'VAT Returns' },
  { value: 'paye', label: 'PAYE & Payroll', uploadLabel: 'PAYE & Payroll' },
  { value: 'cis', label: 'CIS Returns', uploadLabel: 'CIS Returns' },
  { value: 'self_assessment', label: 'Self Assessment', uploadLabel: 'Self Assessment' },
  { value: 'corporation_tax', label: 'Corporation Tax', uploadLabel: 'Corporation Tax' },
  { value: 'bookkeeping', label: 'Bookkeeping', uploadLabel: 'Bookkeeping Records' },
  { value: 'payroll', label: 'Payroll', uploadLabel: 'Payroll Documents' },
  { value: 'advisory', label: 'Advisory', uploadLabel: 'Advisory Reports' },
  { value: 'general', label: 'General', uploadLabel: 'General Documents' },
  // Filed from client requests and messages (issue 28): types a client understands; payroll is above.
  { value: 'bank_statements', label: 'Bank statements', uploadLabel: 'Bank statements' },
  { value: 'receipts', label: 'Receipts', uploadLabel: 'Receipts' },
  { value: 'sales_invoices', label: 'Sales invoices', uploadLabel: 'Sales invoices' },
  { value: 'identity_document', label: 'Identity document', uploadLabel: 'Identity document' },
  { value: 'other', label: 'Other', uploadLabel: 'Other' },
  // Signed engagement letters: stored by the engagement service only, never uploaded by hand.
  { value: 'engagement', label: 'Engagement Letters', uploadLabel: 'Engagement Letters' },
] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number]['value'];
export const DOCUMENT_TYPE_VALUES: DocumentType[] = DOCUMENT_TYPES.map((t) => t.value);
/** The types a person may upload: every type but the signed engagement letters the product files itself. */
export const UPLOAD_DOCUMENT_TYPES = DOCUMENT_TYPES.filter((t) => t.value !== 'engagement');
export const UPLOAD_DOCUMENT_TYPE_VALUES: DocumentType[] = UPLOAD_DOCUMENT_TYPES.map((t) => t.value);

export const DOCUMENT_STATUSES = ['active', 'completed', 'pending'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

export const INVITATION_STATUSES = ['pending', 'accepted', 'expired', 'cancelled'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

export const SUBSCRIPTION_STATUSES = ['active', 'pending', 'cancelled', 'overdue'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
/** The client status filter offers only these (spec section 4). */
export const SUBSCRIPTION_STATUS_FILTERS = ['active', 'pending', 'cancelled'] as const;

export const LEAD_STAGES = ['new_enquiry', 'qualified', 'proposal_sent', 'negotiation', 'won', 'lost'] as const;
export type LeadStage = (typeof LEAD_STAGES)[number];

export const INTEGRATION_TYPES = ['xero', 'quickbooks'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];

// (llp: a limited liability partnership, Limited Liability Partnerships Act 2000; registered at Companies House
// like a company, taxed like a partnership: decision 664)
export const BUSINESS_TYPES = ['sole_trader', 'partnership', 'limited', 'llp'] as const;
export type BusinessType = (typeof BUSINESS_TYPES)[number];
/** The business types registered at Companies House: their sign-up needs the registered name (issue 33). */
export const INCORPORATED_BUSINESS_TYPES: readonly BusinessType[] = ['limited', 'llp'];
export function isIncorporated(type: BusinessType | null | undefined): type is BusinessType {
  return !!type && INCORPORATED_BUSINESS_TYPES.includes(type);
}

export const PACKAGES = [
  { name: 'Sole Trader Package', monthlyFee: 40 },
  { name: 'Partnership Package', monthlyFee: 50 },
  { name: 'Limited Company Starter', monthlyFee: 50 },
  { name: 'Growth', monthlyFee: 100 },
  { name: 'Scale', monthlyFee: 150 },
  { name: 'Professional', monthlyFee: 200 },
  { name: 'Enterprise', monthlyFee: 300 },
] as const;
export type PackageName = (typeof PACKAGES)[number]['name'];
export const DEFAULT_MONTHLY_FEE = 50;

/** Monthly fee in GBP for a package; an unknown package defaults to 50 (spec section 9). */
export function monthlyFeeFor(packageName: string | null | undefined): number {
  return PACKAGES.find((p) => p.name === packageName)?.monthlyFee ?? DEFAULT_MONTHLY_FEE;
}

/** The admin package filter (spec: All Packages, Starter, Growth, Scale, Professional, Enterprise). */
export const PACKAGE_FILTERS = ['Starter', 'Growth', 'Scale', 'Professional', 'Enterprise'] as const;

export const LIMITS = {
  maxUploadBytes: 10_485_760,
  signedUrlSeconds: 60,
  invitationDays: 7,
  /** A password reset link works once, for this long (ours; docs/decisions.md). */
  passwordResetMinutes: 30,
  minPasswordLength: 6,
  sidebarRefetchSeconds: 30,
  messagesBadgeHours: 24,
  accountantAssignedWithinHours: 24,
  sidebarCookieDays: 7,
  mobileBreakpointPx: 768,
  sidebarWidthRem: 16,
  authRefreshBackoffMs: 200,
} as const;

export const VIDEO_TYPES = [
  { value: 'company_overview', label: 'Company Overview', length: '60-90 seconds', minSeconds: 60, maxSeconds: 90 },
  { value: 'website_demo', label: 'Website Demo', length: '90-120 seconds', minSeconds: 90, maxSeconds: 120 },
  { value: 'custom', label: 'Custom Video', length: 'custom length', minSeconds: 15, maxSeconds: 300 },
] as const;

/** Session lifetimes we chose (the spec leaves them open; see docs/decisions.md). */
export const SESSION = {
  accessTokenSeconds: 15 * 60,
  adminSessionHours: 8,
  refreshTokenDays: 30,
} as const;
