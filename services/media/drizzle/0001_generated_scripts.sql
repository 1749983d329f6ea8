CREATE TABLE "media"."generated_scripts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"type" text NOT NULL,
	"prompt" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"script" jsonb,
	"text" text,
	"generator" text,
	"model" text,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"requested_by_kind" text NOT NULL,
	"requested_by_id" text NOT NULL,
	"requested_by_name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "generated_scripts_type_check" CHECK ("media"."generated_scripts"."type" in ('company_overview', 'website_demo', 'custom')),
	CONSTRAINT "generated_scripts_status_check" CHECK ("media"."generated_scripts"."status" in ('queued', 'running', 'completed', 'failed')),
	CONSTRAINT "generated_scripts_generator_check" CHECK ("media"."generated_scripts"."generator" is null or "media"."generated_scripts"."generator" in ('openai', 'template')),
	CONSTRAINT "generated_scripts_progress_check" CHECK ("media"."generated_scripts"."progress" between 0 and 100)
);
--> statement-breakpoint
CREATE INDEX "generated_scripts_created_idx" ON "media"."generated_scripts" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "generated_scripts_unfinished_idx" ON "media"."generated_scripts" USING btree ("created_at") WHERE status in ('queued', 'running');