import {
  deadlineKindLabel,
  DOCUMENT_TYPES,
  formatDate,
  formatGBP,
  jobLabel,
  type EventData,
  type NotificationKind,
} from '@countinghouse/proto';

/** What a notification says and where it leads; en-GB wording, amounts in pounds. */
export interface NotificationText {
  kind: NotificationKind;
  title: string;
  body: string;
  link: string;
}

const PROVIDER_NAMES: Record<string, string> = { xero: 'Xero', quickbooks: 'QuickBooks' };
const ROLE_NAMES: Record<string, string> = {
  admin: 'an administrator',
  manager: 'a manager',
  staff: 'staff',
  accountant: 'an accountant',
  client: 'a client',
  mlro: 'the MLRO',
};

const clientLink = (clientId: string) => `/admin/clients?open=${encodeURIComponent(clientId)}`;

export function newClient(d: EventData<'crm.client_upserted'>): NotificationText {
  const plan = d.packageName ? ` on the ${d.packageName} package (${formatGBP(d.monthlyFee)} a month)` : '';
  return {
    kind: 'new_client',
    title: 'New client',
    body: `${d.companyName} joined as a client${plan}.`,
    link: clientLink(d.clientId),
  };
}

export function paymentFailed(d: EventData<'billing.payment_failed'>): NotificationText {
  return {
    kind: 'payment_failed',
    title: 'Failed payment',
    body: `A payment of ${formatGBP(d.amount)} from ${d.email} for the ${d.packageName} package failed; the subscription is overdue.`,
    link: '/admin/billing',
  };
}

export function documentUploaded(d: EventData<'documents.document_uploaded'>, companyName: string | null): NotificationText {
  const type = DOCUMENT_TYPES.find((t) => t.value === d.documentType)?.label ?? d.documentType;
  return {
    kind: 'document_uploaded',
    title: 'Document uploaded',
    body: `${d.filename} (${type}) was uploaded for ${companyName ?? 'a client'}.`,
    link: '/admin/documents',
  };
}

export function invitationAccepted(d: EventData<'identity.staff_joined'>): NotificationText {
  return {
    kind: 'invitation_accepted',
    title: 'Invitation accepted',
    body: `${d.email} accepted the invitation and joined as ${ROLE_NAMES[d.role] ?? d.role}.`,
    link: '/admin/staff',
  };
}

const SYNC_REASONS: Record<EventData<'integrations.sync_failed'>['reason'], string> = {
  needs_reconnect: 'the client needs to reconnect it',
  provider_unavailable: 'the provider could not be reached',
  error: 'an unexpected error stopped it',
};

export function integrationSyncFailed(d: EventData<'integrations.sync_failed'>, companyName: string | null): NotificationText {
  const provider = PROVIDER_NAMES[d.integrationType] ?? d.integrationType;
  if (d.trigger === 'keep_alive') {
    // The daily keep-alive found the grant refused: nobody was syncing, the client must connect again.
    return {
      kind: 'integration_sync_failed',
      title: 'Integration needs reconnecting',
      body: `${provider} refused to renew the connection of ${companyName ?? 'a client'}: the client needs to connect ${provider} again.`,
      link: clientLink(d.clientId),
    };
  }
  return {
    kind: 'integration_sync_failed',
    title: 'Integration sync failed',
    body: `The ${provider} sync for ${companyName ?? 'a client'} failed: ${SYNC_REASONS[d.reason]}.`,
    link: clientLink(d.clientId),
  };
}

/** A job failed for good (not each retry); the status page lists it with its Retry button. */
export function jobFailed(d: EventData<'jobs.failed'>): NotificationText {
  const tries = d.attempts === 1 ? '1 attempt' : `${d.attempts} attempts`;
  return {
    kind: 'job_failed',
    title: 'Background job failed',
    body: `${jobLabel(d.name)} failed after ${tries}: ${d.error.slice(0, 300)}`,
    link: '/admin/jobs',
  };
}

export function deadlineOverdue(d: EventData<'deadlines.deadline_overdue'>): NotificationText {
  return {
    kind: 'deadline_overdue',
    title: 'Deadline overdue',
    body: `${deadlineKindLabel(d.kind)} for ${d.clientName} (${d.period}) was due ${formatDate(d.dueOn)} and is not marked done.`,
    link: `/admin/deadlines?client_id=${encodeURIComponent(d.clientId)}`,
  };
}

/**
 * An approved AML file's review falls due (MLR 2017 reg. 27(8): keep due diligence up to date); the link
 * opens the practice's AML list on the files needing attention.
 */
export function amlReviewDue(d: EventData<'aml.review_due'>): NotificationText {
  return {
    kind: 'aml_review_due',
    title: 'AML review due',
    body: `The due diligence of ${d.clientName} (version ${d.version}) is due for review by ${formatDate(d.nextReviewOn)}; a task was opened for the assigned accountant.`,
    link: `/admin/aml?status=review_due&client_id=${encodeURIComponent(d.clientId)}`,
  };
}

/** A client signed their engagement letter. */
export function engagementSigned(d: EventData<'engagement.letter_signed'>): NotificationText {
  return {
    kind: 'engagement_signed',
    title: 'Engagement letter signed',
    body: `${d.signerName} signed ${d.clientName}'s engagement letter (version ${d.version}, ${d.packageName}) on ${formatDate(d.signedAt)}.`,
    link: '/admin/clients',
  };
}
