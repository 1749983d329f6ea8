import { Type } from '@sinclair/typebox';

/** A client business was created or changed. The documents directory (and others) build read models from it. */
export const ClientUpsertedSchema = Type.Object({
  clientId: Type.String(),
  /** The client's own sign-in account, when they have one. */
  userId: Type.Union([Type.String(), Type.Null()]),
  companyName: Type.String(),
  contactName: Type.Union([Type.String(), Type.Null()]),
  contactEmail: Type.String(),
  /** Optional so events written before it was added still apply (the audit trail names a changed phone, issue 34). */
  contactPhone: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  packageName: Type.Union([Type.String(), Type.Null()]),
  monthlyFee: Type.Number(),
  subscriptionStatus: Type.String(),
  assignedAccountantId: Type.Union([Type.String(), Type.Null()]),
  /** sole_trader, partnership or limited; optional so events written before it was added still apply. */
  businessType: Type.Optional(Type.String()),
});

/** A task was completed (the client's Timeline: "Task done"). */
export const TaskDoneSchema = Type.Object({
  taskId: Type.String(),
  clientId: Type.Union([Type.String(), Type.Null()]),
  title: Type.String(),
  doneByName: Type.String(),
});

export const CRM_EVENTS = {
  'crm.client_upserted': ClientUpsertedSchema,
  'crm.task_done': TaskDoneSchema,
} as const;
