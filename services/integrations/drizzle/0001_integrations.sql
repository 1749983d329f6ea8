CREATE TABLE "integrations"."client_directory" (
	"client_id" text PRIMARY KEY NOT NULL,
	"user_id" text,
	"company_name" text NOT NULL,
	"assigned_accountant_id" text,
	"source_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integrations"."client_integrations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"integration_type" text NOT NULL,
	"is_active" boolean DEFAULT false NOT NULL,
	"integration_data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_sync_at" timestamp with time zone,
	"needs_reconnect" boolean DEFAULT false NOT NULL,
	"last_sync_job_id" text,
	"last_sync_error" text,
	"connected_by" text,
	"connected_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "client_integrations_type_check" CHECK ("integrations"."client_integrations"."integration_type" in ('xero', 'quickbooks'))
);
--> statement-breakpoint
CREATE TABLE "integrations"."integration_credentials" (
	"integration_id" uuid PRIMARY KEY NOT NULL,
	"external_id" text NOT NULL,
	"connection_id" text,
	"access_token_enc" text NOT NULL,
	"refresh_token_enc" text NOT NULL,
	"access_expires_at" timestamp with time zone NOT NULL,
	"refresh_expires_at" timestamp with time zone,
	"scope" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integrations"."oauth_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"user_id" text NOT NULL,
	"client_id" text NOT NULL,
	"code_verifier_enc" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "integrations"."sync_jobs" (
	"job_id" text PRIMARY KEY NOT NULL,
	"integration_id" uuid NOT NULL,
	"requested_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "integrations"."integration_credentials" ADD CONSTRAINT "integration_credentials_integration_id_client_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "integrations"."client_integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integrations"."sync_jobs" ADD CONSTRAINT "sync_jobs_integration_id_client_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "integrations"."client_integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "client_directory_user_idx" ON "integrations"."client_directory" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "client_directory_accountant_idx" ON "integrations"."client_directory" USING btree ("assigned_accountant_id");--> statement-breakpoint
CREATE UNIQUE INDEX "client_integrations_client_type_idx" ON "integrations"."client_integrations" USING btree ("client_id","integration_type");--> statement-breakpoint
CREATE INDEX "oauth_states_expires_idx" ON "integrations"."oauth_states" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "sync_jobs_integration_idx" ON "integrations"."sync_jobs" USING btree ("integration_id");