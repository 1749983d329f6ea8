import { useMemo } from 'react';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { CRM_ROUTES, type Client } from '@countinghouse/proto';
import { api, apiPath, type ApiArgs } from '../../app/api';
import { useRequestsQuery } from '../requests/api';

/** The clients list's "Records outstanding" filter (issue #28): clients with an open request. */
export type RecordsFilterValue = 'all' | 'outstanding';
export const RECORDS_FILTER_OPTIONS: { value: RecordsFilterValue; label: string }[] = [
  { value: 'all', label: 'All records' },
  { value: 'outstanding', label: 'Records outstanding' },
];

const byIdsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Some clients by id (one page of the outstanding ones): the clients list takes no list of ids. */
    clientsByIds: build.query<Client[], string[]>({
      async queryFn(ids, _api, _extra, baseQuery) {
        const args = (id: string): ApiArgs => ({ url: apiPath(CRM_ROUTES.client(id)), auth: 'admin' });
        const replies = await Promise.all(ids.map((id) => baseQuery(args(id))));
        const failed = replies.find((r) => r.error && (r.error as FetchBaseQueryError).status !== 404);
        if (failed?.error) return { error: failed.error as FetchBaseQueryError };
        // A client deleted since its request was sent is left out rather than failing the page.
        return { data: replies.flatMap((r) => (r.data ? [r.data as Client] : [])) };
      },
      providesTags: (_r, _e, ids) => ids.map((id) => ({ type: 'Client' as const, id })),
    }),
  }),
});

/**
 * The admin clients list's rows when "Records outstanding" is on: GET /api/requests?status=open gives the
 * client ids (with their names, which the search box matches), ordered by name and paged here; the page's
 * clients are then read one by one. Skipped entirely while the filter is off.
 */
export function useRecordsOutstanding({
  enabled,
  search,
  page,
  pageSize,
}: {
  enabled: boolean;
  search: string;
  page: number;
  pageSize: number;
}) {
  const open = useRequestsQuery({ status: 'open', realm: 'admin' }, { skip: !enabled });
  const ids = useMemo(() => {
    const names = new Map<string, string>();
    for (const r of open.data?.requests ?? []) names.set(r.client_id, r.client_name);
    const needle = search.toLowerCase();
    return [...names.entries()]
      .filter(([, name]) => !needle || name.toLowerCase().includes(needle))
      .sort(([, a], [, b]) => a.localeCompare(b, 'en-GB'))
      .map(([id]) => id);
  }, [open.data, search]);
  const slice = ids.slice((page - 1) * pageSize, page * pageSize);
  const clients = byIdsApi.useClientsByIdsQuery(slice, { skip: !enabled || slice.length === 0 });
  return {
    /** Every client with an open request (matching the search), for the count. */
    ids,
    list: {
      data: open.data ? { clients: slice.length === 0 ? [] : (clients.data ?? []), total: ids.length } : undefined,
      isFetching: open.isFetching || clients.isFetching,
      isError: open.isError || clients.isError,
    },
  };
}
