import { LIMITS } from '@countinghouse/proto';
import { useSidebarCountsQuery } from './api';

/** Spec: the sidebar's counts are refetched every 30 seconds; crm writes invalidate them sooner. */
export const SIDEBAR_POLL_MS = LIMITS.sidebarRefetchSeconds * 1000;

/**
 * The admin sidebar's count badges by menu path. Missing while loading or when the counts cannot be
 * read: the sidebar then shows no badge rather than a wrong one.
 */
export function useSidebarBadges(): Partial<Record<string, number>> {
  const { data } = useSidebarCountsQuery(undefined, { pollingInterval: SIDEBAR_POLL_MS, skipPollingIfUnfocused: true });
  if (!data) return {};
  return {
    '/admin/clients': data.clients,
    '/admin/leads': data.leads,
    '/admin/tasks': data.pending_tasks,
    '/admin/upgrades': data.pending_upgrades,
    '/admin/communications': data.communications_24h,
  };
}
