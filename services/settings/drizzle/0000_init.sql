CREATE SCHEMA "settings";
--> statement-breakpoint
CREATE TABLE "settings"."outbox" (
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
CREATE TABLE "settings"."practice_settings" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"practice_name" text NOT NULL,
	"contact_phone" text NOT NULL,
	"contact_email" text NOT NULL,
	"maintenance" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" text,
	"updated_by_name" text,
	CONSTRAINT "practice_settings_single_row" CHECK ("settings"."practice_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "settings"."processed_events" (
	"consumer" text NOT NULL,
	"event_id" uuid NOT NULL,
	"processed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "processed_events_consumer_event_id_pk" PRIMARY KEY("consumer","event_id")
);
--> statement-breakpoint
CREATE TABLE "settings"."setting_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"field" text NOT NULL,
	"old_value" text,
	"new_value" text NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_id" text NOT NULL,
	"actor_name" text NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "setting_changes_field_check" CHECK ("settings"."setting_changes"."field" in ('name', 'phone', 'email', 'maintenance'))
);
--> statement-breakpoint
CREATE INDEX "outbox_unpublished_idx" ON "settings"."outbox" USING btree ("id") WHERE published_at is null;--> statement-breakpoint
CREATE INDEX "setting_changes_changed_idx" ON "settings"."setting_changes" USING btree ("changed_at" DESC NULLS LAST,"id" DESC NULLS LAST);