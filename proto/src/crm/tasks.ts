import { Type, type Static } from '@sinclair/typebox';
import { SafeText } from '../text.js';
import { NameText } from '../rules/schemas.js';
import { CrmDate, CrmDateTime, CrmUuid, Nullable, PageInfo, PageQuery, SearchText, literals } from './common.js';

export const TASK_STATUSES = ['pending', 'in_progress', 'completed', 'cancelled'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const TASK_PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;
export type TaskPriority = (typeof TASK_PRIORITIES)[number];

export const TaskStatusSchema = literals(TASK_STATUSES);
export const TaskPrioritySchema = literals(TASK_PRIORITIES);

export const TaskSchema = Type.Object({
  id: CrmUuid,
  title: Type.String(),
  description: Nullable(Type.String()),
  client_id: Nullable(CrmUuid),
  client_company_name: Nullable(Type.String()),
  /** A team member's user id (from identity). */
  assignee_id: Nullable(CrmUuid),
  assignee_name: Nullable(Type.String()),
  due_date: Nullable(CrmDate),
  status: TaskStatusSchema,
  priority: TaskPrioritySchema,
  created_at: CrmDateTime,
  updated_at: CrmDateTime,
  completed_at: Nullable(CrmDateTime),
  /** The deadline a task came from (deadlines.task_requested), when it did (issue 26). */
  deadline_id: Type.Optional(Nullable(Type.String())),
});
export type Task = Static<typeof TaskSchema>;

export const TaskListQuerySchema = Type.Object(
  {
    /** Case-insensitive on the title. */
    search: Type.Optional(SearchText),
    status: Type.Optional(TaskStatusSchema),
    priority: Type.Optional(TaskPrioritySchema),
    client_id: Type.Optional(CrmUuid),
    assignee_id: Type.Optional(CrmUuid),
    ...PageQuery,
  },
  { additionalProperties: false },
);
export type TaskListQuery = Static<typeof TaskListQuerySchema>;

/** Open work first by due date (no date last), then newest. */
export const TaskListSchema = Type.Object({ tasks: Type.Array(TaskSchema), ...PageInfo });
export type TaskList = Static<typeof TaskListSchema>;

const taskWritable = {
  title: NameText(),
  description: Nullable(SafeText({ maxLength: 5000 })),
  client_id: Nullable(CrmUuid),
  assignee_id: Nullable(CrmUuid),
  due_date: Nullable(CrmDate),
  status: TaskStatusSchema,
  priority: TaskPrioritySchema,
};

/** Defaults: status pending, priority medium. */
export const TaskCreateBodySchema = Type.Object(
  {
    title: taskWritable.title,
    description: Type.Optional(taskWritable.description),
    client_id: Type.Optional(taskWritable.client_id),
    assignee_id: Type.Optional(taskWritable.assignee_id),
    due_date: Type.Optional(taskWritable.due_date),
    status: Type.Optional(taskWritable.status),
    priority: Type.Optional(taskWritable.priority),
  },
  { additionalProperties: false },
);
export type TaskCreateBody = Static<typeof TaskCreateBodySchema>;

export const TaskUpdateBodySchema = Type.Partial(Type.Object(taskWritable), { additionalProperties: false, minProperties: 1 });
export type TaskUpdateBody = Static<typeof TaskUpdateBodySchema>;
