CREATE SCHEMA "deadlines";
--> statement-breakpoint
CREATE TABLE "deadlines"."calendar_tokens" (
	"principal_id" text PRIMARY KEY NOT NULL,
	"principal_kind" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deadlines"."client_directory" (
	"client_id" text PRIMARY KEY NOT NULL,
	"user_id" text,
	"company_name" text NOT NULL,
	"business_type" text,
	"subscription_status" text NOT NULL,
	"assigned_accountant_id" text,
	"source_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deadlines"."company_cache" (
	"client_id" text PRIMARY KEY NOT NULL,
	"company_number" text NOT NULL,
	"snapshot" jsonb,
	"error" text,
	"refreshed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deadlines"."deadline_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"deadline_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"kind" text NOT NULL,
	"period" text NOT NULL,
	"from_due" date NOT NULL,
	"to_due" date NOT NULL,
	"reason" text NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deadlines"."settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"task_lead_days" integer DEFAULT 30 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "settings_single_row" CHECK ("deadlines"."settings"."id" = 1),
	CONSTRAINT "settings_lead_days" CHECK ("deadlines"."settings"."task_lead_days" between 1 and 365)
);
--> statement-breakpoint
CREATE TABLE "deadlines"."deadlines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"assigned_accountant_id" text,
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"period" text NOT NULL,
	"period_end" date,
	"due_on" date NOT NULL,
	"source" text NOT NULL,
	"done_at" timestamp with time zone,
	"done_by" text,
	"done_by_name" text,
	"task_requested_for" date,
	"overdue_announced_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "deadlines_source_check" CHECK ("deadlines"."deadlines"."source" in ('companies_house', 'rule'))
);
--> statement-breakpoint
CREATE TABLE "deadlines"."outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"event_id" uuid NOT NULL,
	"topic" text NOT NULL,
	"key" text,
	"type" text NOT NULL,
	"envelope" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"published_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	CONSTRAINT "outbox_event_id_unique" UNIQUE("event_id")
);
--> statement-breakpoint
CREATE TABLE "deadlines"."processed_events" (
	"consumer" text NOT NULL,
	"event_id" uuid NOT NULL,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "processed_events_consumer_event_id_pk" PRIMARY KEY("consumer","event_id")
);
--> statement-breakpoint
CREATE TABLE "deadlines"."tax_profiles" (
	"client_id" text PRIMARY KEY NOT NULL,
	"profile" jsonb NOT NULL,
	"company_number" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text,
	"updated_by_name" text
);
--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_tokens_hash_idx" ON "deadlines"."calendar_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "client_directory_user_idx" ON "deadlines"."client_directory" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "client_directory_accountant_idx" ON "deadlines"."client_directory" USING btree ("assigned_accountant_id");--> statement-breakpoint
CREATE INDEX "deadline_changes_client_idx" ON "deadlines"."deadline_changes" USING btree ("client_id","changed_at");--> statement-breakpoint
CREATE UNIQUE INDEX "deadlines_client_key_idx" ON "deadlines"."deadlines" USING btree ("client_id","key");--> statement-breakpoint
CREATE INDEX "deadlines_open_due_idx" ON "deadlines"."deadlines" USING btree ("due_on","id") WHERE "deadlines"."deadlines"."done_at" is null;--> statement-breakpoint
CREATE INDEX "deadlines_open_kind_due_idx" ON "deadlines"."deadlines" USING btree ("kind","due_on","id") WHERE "deadlines"."deadlines"."done_at" is null;--> statement-breakpoint
CREATE INDEX "deadlines_open_accountant_due_idx" ON "deadlines"."deadlines" USING btree ("assigned_accountant_id","due_on","id") WHERE "deadlines"."deadlines"."done_at" is null;--> statement-breakpoint
CREATE INDEX "deadlines_client_due_idx" ON "deadlines"."deadlines" USING btree ("client_id","due_on");--> statement-breakpoint
CREATE INDEX "outbox_unpublished_idx" ON "deadlines"."outbox" USING btree ("id") WHERE published_at is null;--> statement-breakpoint
CREATE INDEX "tax_profiles_company_number_idx" ON "deadlines"."tax_profiles" USING btree ("company_number") WHERE "deadlines"."tax_profiles"."company_number" is not null;