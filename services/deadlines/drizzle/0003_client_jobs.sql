CREATE TABLE "deadlines"."job_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"job_id" uuid NOT NULL,
	"text" text NOT NULL,
	"by_id" text,
	"by_name" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deadlines"."job_requests" (
	"request_id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"deadline_id" uuid NOT NULL,
	"title" text NOT NULL,
	"open" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deadlines"."job_schedules" (
	"client_id" text NOT NULL,
	"kind" text NOT NULL,
	"day_of_month" smallint NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text,
	CONSTRAINT "job_schedules_client_id_kind_pk" PRIMARY KEY("client_id","kind"),
	CONSTRAINT "job_schedules_day_check" CHECK ("deadlines"."job_schedules"."day_of_month" between 1 and 28),
	CONSTRAINT "job_schedules_kind_check" CHECK ("deadlines"."job_schedules"."kind" in ('bookkeeping', 'payroll_run'))
);
--> statement-breakpoint
CREATE TABLE "deadlines"."job_staff" (
	"user_id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"role" text,
	"active" boolean DEFAULT true NOT NULL,
	"cost_rate_pence" integer DEFAULT 0 NOT NULL,
	"weekly_capacity_minutes" integer DEFAULT 2250 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "job_staff_rate_check" CHECK ("deadlines"."job_staff"."cost_rate_pence" >= 0 and "deadlines"."job_staff"."weekly_capacity_minutes" >= 0)
);
--> statement-breakpoint
CREATE TABLE "deadlines"."job_stage_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"job_id" uuid NOT NULL,
	"stage" text NOT NULL,
	"entered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"by_id" text,
	"by_name" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deadlines"."job_templates" (
	"kind" text PRIMARY KEY NOT NULL,
	"stages" jsonb NOT NULL,
	"budget_minutes" integer NOT NULL,
	"reviewer_role" text NOT NULL,
	"lead_days" integer NOT NULL,
	"target_days_before" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text
);
--> statement-breakpoint
CREATE TABLE "deadlines"."job_timers" (
	"user_id" text PRIMARY KEY NOT NULL,
	"user_name" text NOT NULL,
	"job_id" uuid NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deadlines"."jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"deadline_id" uuid,
	"recurring_key" text,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"period" text,
	"stages" jsonb NOT NULL,
	"stage_index" integer DEFAULT 0 NOT NULL,
	"stage" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"checklist" jsonb NOT NULL,
	"statutory_due_on" date,
	"due_on" date NOT NULL,
	"assignee_id" text,
	"reviewer_id" text,
	"reviewer_role" text NOT NULL,
	"budget_minutes" integer NOT NULL,
	"used_minutes" integer DEFAULT 0 NOT NULL,
	"waiting_on_client" boolean DEFAULT false NOT NULL,
	"filed_on" date,
	"reference" text,
	"stage_entered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "jobs_status_check" CHECK ("deadlines"."jobs"."status" in ('open', 'filed'))
);
--> statement-breakpoint
CREATE TABLE "deadlines"."staff_leave" (
	"user_id" text NOT NULL,
	"day" date NOT NULL,
	CONSTRAINT "staff_leave_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
CREATE TABLE "deadlines"."time_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"job_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"user_id" text NOT NULL,
	"user_name" text NOT NULL,
	"minutes" integer NOT NULL,
	"worked_on" date NOT NULL,
	"note" text,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "time_entries_minutes_check" CHECK ("deadlines"."time_entries"."minutes" > 0),
	CONSTRAINT "time_entries_source_check" CHECK ("deadlines"."time_entries"."source" in ('manual', 'timer'))
);
--> statement-breakpoint
ALTER TABLE "deadlines"."client_directory" ADD COLUMN "package_name" text;--> statement-breakpoint
ALTER TABLE "deadlines"."client_directory" ADD COLUMN "monthly_fee_pence" integer;--> statement-breakpoint
CREATE INDEX "job_notes_job_idx" ON "deadlines"."job_notes" USING btree ("job_id","at");--> statement-breakpoint
CREATE INDEX "job_requests_open_deadline_idx" ON "deadlines"."job_requests" USING btree ("deadline_id") WHERE "deadlines"."job_requests"."open";--> statement-breakpoint
CREATE INDEX "job_stage_history_job_idx" ON "deadlines"."job_stage_history" USING btree ("job_id","entered_at");--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_deadline_idx" ON "deadlines"."jobs" USING btree ("deadline_id") WHERE "deadlines"."jobs"."deadline_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_recurring_idx" ON "deadlines"."jobs" USING btree ("recurring_key") WHERE "deadlines"."jobs"."recurring_key" is not null;--> statement-breakpoint
CREATE INDEX "jobs_open_kind_stage_due_idx" ON "deadlines"."jobs" USING btree ("kind","stage","due_on","id") WHERE "deadlines"."jobs"."status" = 'open';--> statement-breakpoint
CREATE INDEX "jobs_open_due_idx" ON "deadlines"."jobs" USING btree ("due_on","id") WHERE "deadlines"."jobs"."status" = 'open';--> statement-breakpoint
CREATE INDEX "jobs_assignee_due_idx" ON "deadlines"."jobs" USING btree ("assignee_id","due_on","id");--> statement-breakpoint
CREATE INDEX "jobs_client_idx" ON "deadlines"."jobs" USING btree ("client_id","due_on");--> statement-breakpoint
CREATE INDEX "time_entries_job_idx" ON "deadlines"."time_entries" USING btree ("job_id","worked_on");--> statement-breakpoint
CREATE INDEX "time_entries_worked_idx" ON "deadlines"."time_entries" USING btree ("worked_on","client_id");