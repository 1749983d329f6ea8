CREATE SCHEMA "records";
--> statement-breakpoint
CREATE TABLE "records"."audit_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"chain" text NOT NULL,
	"seq" integer NOT NULL,
	"client_id" text,
	"event_id" uuid NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_id" text,
	"actor_name" text,
	"ip" text,
	"action" text NOT NULL,
	"summary" text NOT NULL,
	"prev_hash" text NOT NULL,
	"hash" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "records"."client_retention" (
	"client_id" text PRIMARY KEY NOT NULL,
	"company_name" text,
	"user_id" text,
	"status" text,
	"relationship_ended_on" date,
	"ended_manually" boolean DEFAULT false NOT NULL,
	"legal_hold" boolean DEFAULT false NOT NULL,
	"hold_reason" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "records"."field_hashes" (
	"client_id" text NOT NULL,
	"field" text NOT NULL,
	"hash" text NOT NULL,
	CONSTRAINT "field_hashes_client_id_field_pk" PRIMARY KEY("client_id","field")
);
--> statement-breakpoint
CREATE TABLE "records"."outbox" (
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
CREATE TABLE "records"."processed_events" (
	"consumer" text NOT NULL,
	"event_id" uuid NOT NULL,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "processed_events_consumer_event_id_pk" PRIMARY KEY("consumer","event_id")
);
--> statement-breakpoint
CREATE TABLE "records"."retention_answers" (
	"run_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"record_type" text NOT NULL,
	"service" text NOT NULL,
	"files_deleted" integer NOT NULL,
	"items" integer NOT NULL,
	CONSTRAINT "retention_answers_run_id_client_id_record_type_service_pk" PRIMARY KEY("run_id","client_id","record_type","service")
);
--> statement-breakpoint
CREATE TABLE "records"."retention_report" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"run_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"record_type" text NOT NULL,
	"item_id" text NOT NULL,
	"label" text NOT NULL,
	"files_deleted" integer NOT NULL,
	"erased_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "records"."retention_rules" (
	"record_type" text PRIMARY KEY NOT NULL,
	"years" integer NOT NULL,
	"trigger" text NOT NULL,
	"updated_by_id" text,
	"updated_by_name" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "records"."retention_runs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"day" date NOT NULL,
	"dry_run" boolean NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decisions" jsonb NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "records_audit_chain_seq_idx" ON "records"."audit_entries" USING btree ("chain","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "records_audit_event_idx" ON "records"."audit_entries" USING btree ("event_id");--> statement-breakpoint
CREATE INDEX "records_audit_actor_idx" ON "records"."audit_entries" USING btree ("actor_id","occurred_at");--> statement-breakpoint
CREATE INDEX "records_audit_client_idx" ON "records"."audit_entries" USING btree ("client_id","occurred_at");--> statement-breakpoint
CREATE INDEX "outbox_unpublished_idx" ON "records"."outbox" USING btree ("id") WHERE published_at is null;--> statement-breakpoint
CREATE INDEX "records_report_run_idx" ON "records"."retention_report" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "records_runs_started_idx" ON "records"."retention_runs" USING btree ("started_at");