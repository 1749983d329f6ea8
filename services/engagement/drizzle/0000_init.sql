CREATE SCHEMA "engagement";
--> statement-breakpoint
CREATE TABLE "engagement"."audit" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"letter_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"action" text NOT NULL,
	"principal_kind" text NOT NULL,
	"principal_id" text,
	"principal_name" text NOT NULL,
	"ip" text,
	"user_agent" text,
	"detail" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "audit_action_check" CHECK ("engagement"."audit"."action" in ('send', 'view', 'sign', 'download', 'reminder'))
);
--> statement-breakpoint
CREATE TABLE "engagement"."client_directory" (
	"client_id" text PRIMARY KEY NOT NULL,
	"user_id" text,
	"company_name" text NOT NULL,
	"contact_name" text,
	"contact_email" text NOT NULL,
	"package_name" text,
	"monthly_fee" numeric(10, 2) NOT NULL,
	"subscription_status" text NOT NULL,
	"business_type" text,
	"assigned_accountant_id" text,
	"source_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "engagement"."letters" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"version" integer NOT NULL,
	"reason" text NOT NULL,
	"template_version" integer NOT NULL,
	"package_name" text NOT NULL,
	"monthly_fee" numeric(10, 2) NOT NULL,
	"is_consumer" boolean NOT NULL,
	"client_name" text NOT NULL,
	"recipient_email" text NOT NULL,
	"text" text NOT NULL,
	"text_sha256" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_by" text,
	"signed_at" timestamp with time zone,
	"signer_name" text,
	"signer_email" text,
	"signer_user_id" text,
	"signer_ip" text,
	"signer_user_agent" text,
	"pdf" "bytea",
	"pdf_sha256" text,
	"document_id" uuid,
	CONSTRAINT "letters_reason_check" CHECK ("engagement"."letters"."reason" in ('onboarding', 'package_changed', 'template_changed', 'sent_by_practice')),
	CONSTRAINT "letters_signature_whole" CHECK (("engagement"."letters"."signed_at" is null) = ("engagement"."letters"."signer_name" is null) and ("engagement"."letters"."signed_at" is null) = ("engagement"."letters"."pdf" is null) and ("engagement"."letters"."signed_at" is null) = ("engagement"."letters"."document_id" is null))
);
--> statement-breakpoint
CREATE TABLE "engagement"."outbox" (
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
CREATE TABLE "engagement"."processed_events" (
	"consumer" text NOT NULL,
	"event_id" uuid NOT NULL,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "processed_events_consumer_event_id_pk" PRIMARY KEY("consumer","event_id")
);
--> statement-breakpoint
CREATE TABLE "engagement"."reminders" (
	"letter_id" uuid NOT NULL,
	"day" integer NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reminders_letter_id_day_pk" PRIMARY KEY("letter_id","day")
);
--> statement-breakpoint
CREATE TABLE "engagement"."template_versions" (
	"version" integer PRIMARY KEY NOT NULL,
	"templates" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text,
	"created_by_name" text
);
--> statement-breakpoint
CREATE INDEX "audit_letter_idx" ON "engagement"."audit" USING btree ("letter_id","at");--> statement-breakpoint
CREATE INDEX "client_directory_user_idx" ON "engagement"."client_directory" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "client_directory_accountant_idx" ON "engagement"."client_directory" USING btree ("assigned_accountant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "letters_client_version_idx" ON "engagement"."letters" USING btree ("client_id","version");--> statement-breakpoint
CREATE INDEX "letters_awaiting_idx" ON "engagement"."letters" USING btree ("sent_at") WHERE "engagement"."letters"."signed_at" is null;--> statement-breakpoint
CREATE INDEX "outbox_unpublished_idx" ON "engagement"."outbox" USING btree ("id") WHERE published_at is null;