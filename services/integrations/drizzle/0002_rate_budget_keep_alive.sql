CREATE TABLE "integrations"."provider_calls" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"organisation" text NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "integrations"."integration_credentials" ADD COLUMN "keep_alive_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "integrations"."integration_credentials" ADD COLUMN "keep_alive_outcome" text;--> statement-breakpoint
ALTER TABLE "integrations"."sync_jobs" ADD COLUMN "retry_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "integrations"."sync_jobs" ADD COLUMN "retry_reason" text;--> statement-breakpoint
ALTER TABLE "integrations"."sync_jobs" ADD COLUMN "deferrals" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "provider_calls_org_at_idx" ON "integrations"."provider_calls" USING btree ("provider","organisation","at");