CREATE TABLE "identity"."retired_refresh_tokens" (
	"refresh_hash" text PRIMARY KEY NOT NULL,
	"session_kind" text NOT NULL,
	"session_id" uuid NOT NULL,
	"retired_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "identity"."revocations" (
	"kind" text NOT NULL,
	"target_id" text NOT NULL,
	"subject_id" text NOT NULL,
	"issued_before" bigint,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "revocations_kind_target_id_pk" PRIMARY KEY("kind","target_id")
);
--> statement-breakpoint
CREATE TABLE "identity"."sign_in_known_addresses" (
	"scope" text NOT NULL,
	"account_key" text NOT NULL,
	"address_hash" text NOT NULL,
	"last_success_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sign_in_known_addresses_scope_account_key_address_hash_pk" PRIMARY KEY("scope","account_key","address_hash")
);
--> statement-breakpoint
CREATE TABLE "identity"."sign_in_lockouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"address" text,
	"failures" integer NOT NULL,
	"level" integer NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "identity"."sign_in_throttle" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_start" timestamp with time zone DEFAULT now() NOT NULL,
	"last_failure_at" timestamp with time zone DEFAULT now() NOT NULL,
	"delay_level" integer DEFAULT 0 NOT NULL,
	"delay_until" timestamp with time zone,
	CONSTRAINT "sign_in_throttle_scope_key_pk" PRIMARY KEY("scope","key")
);
--> statement-breakpoint
DROP INDEX "identity"."admin_sessions_previous_hash_idx";--> statement-breakpoint
DROP INDEX "identity"."user_sessions_previous_hash_idx";--> statement-breakpoint
CREATE INDEX "retired_refresh_tokens_retired_idx" ON "identity"."retired_refresh_tokens" USING btree ("retired_at");--> statement-breakpoint
CREATE INDEX "revocations_expires_idx" ON "identity"."revocations" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "sign_in_known_addresses_last_idx" ON "identity"."sign_in_known_addresses" USING btree ("last_success_at");--> statement-breakpoint
CREATE INDEX "sign_in_lockouts_started_idx" ON "identity"."sign_in_lockouts" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "sign_in_throttle_last_failure_idx" ON "identity"."sign_in_throttle" USING btree ("last_failure_at");--> statement-breakpoint
ALTER TABLE "identity"."admin_sessions" DROP COLUMN "previous_refresh_hash";--> statement-breakpoint
ALTER TABLE "identity"."user_sessions" DROP COLUMN "previous_refresh_hash";--> statement-breakpoint
DROP TABLE "identity"."login_throttle" CASCADE;