CREATE SCHEMA "notifications";
--> statement-breakpoint
CREATE TABLE "notifications"."client_directory" (
	"client_id" text PRIMARY KEY NOT NULL,
	"company_name" text NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications"."notifications" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"id" uuid DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"link" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"source_event_id" uuid NOT NULL,
	CONSTRAINT "notifications_id_unique" UNIQUE("id"),
	CONSTRAINT "notifications_source_event_id_unique" UNIQUE("source_event_id"),
	CONSTRAINT "notifications_kind_check" CHECK ("notifications"."notifications"."kind" in ('new_client', 'payment_failed', 'document_uploaded', 'invitation_accepted', 'integration_sync_failed'))
);
--> statement-breakpoint
CREATE TABLE "notifications"."outbox" (
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
CREATE TABLE "notifications"."processed_events" (
	"consumer" text NOT NULL,
	"event_id" uuid NOT NULL,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "processed_events_consumer_event_id_pk" PRIMARY KEY("consumer","event_id")
);
--> statement-breakpoint
CREATE TABLE "notifications"."read_receipts" (
	"principal_kind" text NOT NULL,
	"principal_id" text NOT NULL,
	"seq" bigint NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "read_receipts_principal_kind_principal_id_seq_pk" PRIMARY KEY("principal_kind","principal_id","seq")
);
--> statement-breakpoint
CREATE TABLE "notifications"."recipient_state" (
	"principal_kind" text NOT NULL,
	"principal_id" text NOT NULL,
	"read_through" bigint DEFAULT 0 NOT NULL,
	"muted_kinds" text[] DEFAULT '{}'::text[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recipient_state_principal_kind_principal_id_pk" PRIMARY KEY("principal_kind","principal_id"),
	CONSTRAINT "recipient_state_kind_check" CHECK ("notifications"."recipient_state"."principal_kind" in ('admin', 'user'))
);
--> statement-breakpoint
ALTER TABLE "notifications"."read_receipts" ADD CONSTRAINT "read_receipts_seq_notifications_seq_fk" FOREIGN KEY ("seq") REFERENCES "notifications"."notifications"("seq") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notifications_kind_seq_idx" ON "notifications"."notifications" USING btree ("kind","seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "outbox_unpublished_idx" ON "notifications"."outbox" USING btree ("id") WHERE published_at is null;