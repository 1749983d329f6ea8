import { Type, type Static, type TSchema } from '@sinclair/typebox';

/** Job names and payload schemas; producers and processors both validate against these. */
export const QUEUES = {
  maintenance: 'countinghouse-maintenance',
  integrations: 'countinghouse-integrations',
  media: 'countinghouse-media',
} as const;

export const PurgeExpiredSessionsJobSchema = Type.Object({ olderThanDays: Type.Integer({ minimum: 0 }) });

export const JOBS = {
  'identity.purge_expired_sessions': { queue: QUEUES.maintenance, schema: PurgeExpiredSessionsJobSchema },
} as const satisfies Record<string, { queue: string; schema: TSchema }>;
export type JobName = keyof typeof JOBS;
export type JobPayload<N extends JobName> = Static<(typeof JOBS)[N]['schema']>;
