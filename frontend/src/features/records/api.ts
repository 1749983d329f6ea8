import type {
  AuditList,
  AuditQuery,
  ChainCheck,
  RetentionRecordType,
  RetentionRuleBody,
  RetentionRun,
  RetentionSchedule,
  SubjectAccess,
  SubjectAccessBody,
  SubjectAccessList,
} from '@countinghouse/proto';
import { api, apiPath, type AuthRealm } from '../../app/api';

/** The records service: the audit trail, subject-access requests and the retention schedule (issue 34). */
export const RECORDS_ROUTES = {
  audit: '/api/records/audit',
  auditCsv: '/api/records/audit/export.csv',
  chain: '/api/records/audit/chain',
  subjectAccess: '/api/records/subject-access',
  download: (id: string) => `/api/records/subject-access/${encodeURIComponent(id)}/download`,
  schedule: '/api/records/retention/schedule',
  rule: (t: RetentionRecordType) => `/api/records/retention/schedule/${t}`,
  run: '/api/records/retention/run',
  runs: '/api/records/retention/runs',
} as const;

const clean = (q: object) =>
  Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== null && v !== '')) as Record<string, string>;

/** A query string from filters (the CSV link carries the same filters as the table). */
export const withQuery = (path: string, q: object) => {
  const s = new URLSearchParams(clean(q)).toString();
  return s ? `${path}?${s}` : path;
};

type R = { realm?: AuthRealm };

export const recordsApi = api.injectEndpoints({
  endpoints: (build) => ({
    audit: build.query<AuditList, Partial<AuditQuery> & R>({
      query: ({ realm, ...q }) => ({ url: apiPath(withQuery(RECORDS_ROUTES.audit, q)), auth: realm ?? 'admin' }),
    }),
    chainCheck: build.mutation<ChainCheck, { clientId: string } & R>({
      query: ({ clientId, realm }) => ({ url: apiPath(withQuery(RECORDS_ROUTES.chain, { client_id: clientId })), auth: realm ?? 'admin' }),
    }),
    subjectAccess: build.query<SubjectAccessList, void>({
      query: () => ({ url: apiPath(RECORDS_ROUTES.subjectAccess), auth: 'admin' }),
    }),
    logSubjectAccess: build.mutation<SubjectAccess, SubjectAccessBody>({
      query: (body) => ({ url: apiPath(RECORDS_ROUTES.subjectAccess), method: 'POST', body, auth: 'admin' }),
    }),
    retentionSchedule: build.query<RetentionSchedule, void>({
      query: () => ({ url: apiPath(RECORDS_ROUTES.schedule), auth: 'admin' }),
    }),
    changeRule: build.mutation<RetentionSchedule, { recordType: RetentionRecordType; body: RetentionRuleBody }>({
      query: ({ recordType, body }) => ({ url: apiPath(RECORDS_ROUTES.rule(recordType)), method: 'PUT', body, auth: 'admin' }),
    }),
    runRetention: build.mutation<RetentionRun, { dry_run: boolean }>({
      query: (body) => ({ url: apiPath(RECORDS_ROUTES.run), method: 'POST', body, auth: 'admin' }),
    }),
  }),
});

export const {
  useAuditQuery,
  useChainCheckMutation,
  useSubjectAccessQuery,
  useLogSubjectAccessMutation,
  useRetentionScheduleQuery,
  useChangeRuleMutation,
  useRunRetentionMutation,
} = recordsApi;
