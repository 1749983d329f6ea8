CREATE SCHEMA "jobs";
--> statement-breakpoint
CREATE TABLE "jobs"."outbox" (
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
CREATE TABLE "jobs"."processed_events" (
	"consumer" text NOT NULL,
	"event_id" uuid NOT NULL,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "processed_events_consumer_event_id_pk" PRIMARY KEY("consumer","event_id")
);
--> statement-breakpoint
CREATE TABLE "jobs"."schedules" (
	"key" text PRIMARY KEY NOT NULL,
	"job" text NOT NULL,
	"cron" text NOT NULL,
	"time_zone" text DEFAULT 'Europe/London' NOT NULL,
	"payload" jsonb NOT NULL,
	"catch_up" boolean DEFAULT false NOT NULL,
	"last_slot" timestamp with time zone,
	"last_job_id" text,
	"last_run_at" timestamp with time zone,
	"last_outcome" text,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "outbox_unpublished_idx" ON "jobs"."outbox" USING btree ("id") WHERE published_at is null;