CREATE SCHEMA "aml";
--> statement-breakpoint
CREATE TABLE "aml"."audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"version" integer,
	"action" text NOT NULL,
	"detail" text NOT NULL,
	"actor_id" text,
	"actor_name" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "aml"."client_directory" (
	"client_id" text PRIMARY KEY NOT NULL,
	"user_id" text,
	"company_name" text NOT NULL,
	"business_type" text,
	"subscription_status" text NOT NULL,
	"assigned_accountant_id" text,
	"relationship_ended_on" date,
	"source_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "aml"."company_people" (
	"client_id" text PRIMARY KEY NOT NULL,
	"company_number" text NOT NULL,
	"officers" jsonb NOT NULL,
	"pscs" jsonb NOT NULL,
	"refreshed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "aml"."deletions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"client_name" text NOT NULL,
	"relationship_ended_on" date NOT NULL,
	"deleted_by" text,
	"deleted_by_name" text NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"evidence_documents" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "aml"."evidence_documents" (
	"document_id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"filename" text NOT NULL,
	"uploaded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "aml"."files" (
	"client_id" text PRIMARY KEY NOT NULL,
	"latest_version" integer DEFAULT 1 NOT NULL,
	"latest_state" text DEFAULT 'draft' NOT NULL,
	"approved_version" integer,
	"approved_next_review_on" date,
	"approved_risk_level" text,
	"started_at" timestamp with time zone,
	"review_announced_for" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "aml_files_state_check" CHECK ("aml"."files"."latest_state" in ('draft', 'awaiting_approval', 'approved'))
);
--> statement-breakpoint
CREATE TABLE "aml"."outbox" (
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
CREATE TABLE "aml"."processed_events" (
	"consumer" text NOT NULL,
	"event_id" uuid NOT NULL,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "processed_events_consumer_event_id_pk" PRIMARY KEY("consumer","event_id")
);
--> statement-breakpoint
CREATE TABLE "aml"."versions" (
	"client_id" text NOT NULL,
	"version" integer NOT NULL,
	"state" text NOT NULL,
	"content" jsonb NOT NULL,
	"risk" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by_name" text NOT NULL,
	"approved_at" timestamp with time zone,
	"approved_by" text,
	"approved_by_name" text,
	"approval_note" text,
	"next_review_on" date,
	CONSTRAINT "versions_client_id_version_pk" PRIMARY KEY("client_id","version"),
	CONSTRAINT "aml_versions_state_check" CHECK ("aml"."versions"."state" in ('draft', 'awaiting_approval', 'approved', 'superseded'))
);
--> statement-breakpoint
CREATE INDEX "aml_audit_client_idx" ON "aml"."audit" USING btree ("client_id","at");--> statement-breakpoint
CREATE INDEX "aml_directory_accountant_idx" ON "aml"."client_directory" USING btree ("assigned_accountant_id");--> statement-breakpoint
CREATE INDEX "aml_directory_user_idx" ON "aml"."client_directory" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "aml_deletions_client_at_idx" ON "aml"."deletions" USING btree ("client_id","deleted_at");--> statement-breakpoint
CREATE INDEX "aml_evidence_documents_client_idx" ON "aml"."evidence_documents" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "aml_files_review_idx" ON "aml"."files" USING btree ("approved_next_review_on");--> statement-breakpoint
CREATE INDEX "outbox_unpublished_idx" ON "aml"."outbox" USING btree ("id") WHERE published_at is null;