import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { IntegrationTypeSchema } from './integrations/integrations.js';
import { GenerateScriptJobSchema } from './media/jobs.js';

/** Job names and payload schemas; producers and processors both validate against these. */
export const QUEUES = {
  maintenance: 'countinghouse-maintenance',
  integrations: 'countinghouse-integrations',
  media: 'countinghouse-media',
  deadlines: 'countinghouse-deadlines',
  aml: 'countinghouse-aml',
  engagement: 'countinghouse-engagement',
  requests: 'countinghouse-requests',
  records: 'countinghouse-records',
} as const;

export const PurgeExpiredSessionsJobSchema = Type.Object({ olderThanDays: Type.Integer({ minimum: 0 }) });

/** Pull one connected integration's organisation, contacts and invoices summary (sync-xero-data, sync-quickbooks-data). */
export const IntegrationSyncJobSchema = Type.Object({
  integrationId: Type.String({ minLength: 1 }),
  integrationType: IntegrationTypeSchema,
});

/** The daily keep-alive of provider grants (refresh tokens lapsing within 14 days are refreshed). */
export const IntegrationKeepAliveJobSchema = Type.Object({});
/** Daily: read every pending MTD authorisation request's status back from HMRC (issue 31). */
export const MtdDailyJobSchema = Type.Object({});
/** The daily deadline jobs; `day` (YYYY-MM-DD, London) is the run's day: tests and catch-up runs pass it. */
export const DeadlinesDailyJobSchema = Type.Object({ day: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })) });
/** The daily AML review reminders; `day` (YYYY-MM-DD, London) as for the deadline jobs. */
export const AmlDailyJobSchema = Type.Object({ day: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })) });
export const CompaniesHouseRefreshJobSchema = Type.Object({ clientId: Type.Optional(Type.String()) });

/** The daily chase of unsigned engagement letters; `day` (YYYY-MM-DD, London) as the deadlines' run. */
export const EngagementRemindersJobSchema = Type.Object({ day: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })) });

/** The daily run of client requests: open them ahead of deadlines, then chase; `day` (YYYY-MM-DD, London). */
export const RequestsDailyJobSchema = Type.Object({ day: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })) });

/** The daily retention run (issue 34): `day` (YYYY-MM-DD, London) and whether to only report what would go. */
export const RecordsRetentionJobSchema = Type.Object({
  day: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' })),
  dryRun: Type.Optional(Type.Boolean()),
});

export const JOBS = {
  'identity.purge_expired_sessions': { queue: QUEUES.maintenance, schema: PurgeExpiredSessionsJobSchema },
  'integrations.sync': { queue: QUEUES.integrations, schema: IntegrationSyncJobSchema },
  'integrations.keep_alive': { queue: QUEUES.integrations, schema: IntegrationKeepAliveJobSchema },
  'integrations.mtd_daily': { queue: QUEUES.integrations, schema: MtdDailyJobSchema },
  'media.generate_script': { queue: QUEUES.media, schema: GenerateScriptJobSchema },
  /** Daily: recompute deadlines, open tasks ahead of them, announce the ones passed and not done. */
  'deadlines.daily': { queue: QUEUES.deadlines, schema: DeadlinesDailyJobSchema },
  /** Daily: read every linked company (or one) from Companies House and move changed dates. */
  'deadlines.companies_house_refresh': { queue: QUEUES.deadlines, schema: CompaniesHouseRefreshJobSchema },
  /** Daily: announce AML reviews falling due (a task and a notification, once per approved version). */
  'aml.daily': { queue: QUEUES.aml, schema: AmlDailyJobSchema },
  /** Daily: e-mail the reminders of unsigned engagement letters (3 and 7 days after sending). */
  'engagement.reminders': { queue: QUEUES.engagement, schema: EngagementRemindersJobSchema },
  /** Daily: open client requests ahead of deadlines, then e-mail the reminders on each request's schedule. */
  'requests.daily': { queue: QUEUES.requests, schema: RequestsDailyJobSchema },
  /** Daily: erase what the retention schedule says has expired (each service deletes its own, by event). */
  'records.retention': { queue: QUEUES.records, schema: RecordsRetentionJobSchema },
} as const satisfies Record<string, { queue: string; schema: TSchema }>;
export type JobName = keyof typeof JOBS;
export type JobPayload<N extends JobName> = Static<(typeof JOBS)[N]['schema']>;
