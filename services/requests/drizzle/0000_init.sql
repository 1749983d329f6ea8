CREATE SCHEMA "requests";
--> statement-breakpoint
CREATE TABLE "requests"."activity" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"item_id" uuid,
	"action" text NOT NULL,
	"by_id" text,
	"by_name" text NOT NULL,
	"detail" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "requests"."client_directory" (
	"client_id" text PRIMARY KEY NOT NULL,
	"user_id" text,
	"company_name" text NOT NULL,
	"contact_email" text NOT NULL,
	"assigned_accountant_id" text,
	"source_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "requests"."deadline_directory" (
	"deadline_id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"kind" text NOT NULL,
	"period" text NOT NULL,
	"due_on" date NOT NULL,
	"done" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "requests"."items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"request_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"kind" text NOT NULL,
	"label" text NOT NULL,
	"document_type" text,
	"status" text DEFAULT 'requested' NOT NULL,
	"answer" text,
	"confirmed" boolean,
	"document_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"rejection_reason" text,
	"submitted_at" timestamp with time zone,
	"reviewed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "requests"."messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"side" text NOT NULL,
	"author_id" text NOT NULL,
	"author_name" text NOT NULL,
	"body" text NOT NULL,
	"attachments" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "requests"."outbox" (
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
CREATE TABLE "requests"."processed_events" (
	"consumer" text NOT NULL,
	"event_id" uuid NOT NULL,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "processed_events_consumer_event_id_pk" PRIMARY KEY("consumer","event_id")
);
--> statement-breakpoint
CREATE TABLE "requests"."reminders" (
	"request_id" uuid NOT NULL,
	"day" date NOT NULL,
	"sent_to" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"by_name" text NOT NULL,
	CONSTRAINT "reminders_request_id_day_pk" PRIMARY KEY("request_id","day")
);
--> statement-breakpoint
CREATE TABLE "requests"."requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"title" text NOT NULL,
	"due_on" date NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"template_id" uuid,
	"schedule" jsonb NOT NULL,
	"deadline_id" text,
	"deadline_due_on" date,
	"assignee_id" text,
	"created_by" text,
	"created_by_name" text NOT NULL,
	"sent_on" date NOT NULL,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "requests"."templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"items" jsonb NOT NULL,
	"schedule" jsonb NOT NULL,
	"deadline_kind" text,
	"lead_days" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "requests"."thread_reads" (
	"client_id" text NOT NULL,
	"side" text NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	CONSTRAINT "thread_reads_client_id_side_pk" PRIMARY KEY("client_id","side")
);
--> statement-breakpoint
ALTER TABLE "requests"."items" ADD CONSTRAINT "items_request_id_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "requests"."requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_request_idx" ON "requests"."activity" USING btree ("request_id","at");--> statement-breakpoint
CREATE INDEX "requests_directory_user_idx" ON "requests"."client_directory" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "requests_directory_accountant_idx" ON "requests"."client_directory" USING btree ("assigned_accountant_id");--> statement-breakpoint
CREATE INDEX "deadline_directory_client_idx" ON "requests"."deadline_directory" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "deadline_directory_due_idx" ON "requests"."deadline_directory" USING btree ("due_on");--> statement-breakpoint
CREATE INDEX "items_request_idx" ON "requests"."items" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "items_status_idx" ON "requests"."items" USING btree ("status");--> statement-breakpoint
CREATE INDEX "messages_client_idx" ON "requests"."messages" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE INDEX "outbox_unpublished_idx" ON "requests"."outbox" USING btree ("id") WHERE published_at is null;--> statement-breakpoint
CREATE INDEX "requests_client_idx" ON "requests"."requests" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "requests_open_idx" ON "requests"."requests" USING btree ("status","due_on");--> statement-breakpoint
CREATE UNIQUE INDEX "requests_deadline_once" ON "requests"."requests" USING btree ("deadline_id","deadline_due_on") WHERE deadline_id is not null;