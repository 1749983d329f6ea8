CREATE TABLE "integrations"."hmrc_calls" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"status" integer NOT NULL,
	"correlation_id" text,
	"client_id" text
);
--> statement-breakpoint
CREATE TABLE "integrations"."hmrc_connection" (
	"id" text PRIMARY KEY NOT NULL,
	"arn" text,
	"access_token_enc" text,
	"refresh_token_enc" text,
	"access_expires_at" timestamp with time zone,
	"scope" text,
	"needs_reconnect" boolean DEFAULT false NOT NULL,
	"connected_by" text,
	"connected_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integrations"."mtd_authorisations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"agent_type" text NOT NULL,
	"invitation_id" text NOT NULL,
	"status" text NOT NULL,
	"client_action_url" text,
	"expires_on" text NOT NULL,
	"requested_by" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"checked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "integrations"."mtd_businesses" (
	"client_id" text NOT NULL,
	"business_id" text NOT NULL,
	"type_of_business" text NOT NULL,
	"trading_name" text,
	"refreshed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integrations"."mtd_calculations" (
	"calculation_id" text PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"submission_id" uuid,
	"tax_year" text NOT NULL,
	"calculation_type" text NOT NULL,
	"triggered_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integrations"."mtd_clients" (
	"client_id" text PRIMARY KEY NOT NULL,
	"nino" text,
	"postcode" text,
	"exemption_reason" text,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integrations"."mtd_obligations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"kind" text NOT NULL,
	"business_id" text,
	"type_of_business" text,
	"period_start_date" text NOT NULL,
	"period_end_date" text NOT NULL,
	"due_date" text NOT NULL,
	"status" text NOT NULL,
	"received_date" text,
	"refreshed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "mtd_obligations_kind_check" CHECK ("integrations"."mtd_obligations"."kind" in ('quarterly', 'final_declaration'))
);
--> statement-breakpoint
CREATE TABLE "integrations"."mtd_qualifying_income" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"tax_year" text NOT NULL,
	"amount_pence" bigint NOT NULL,
	"recorded_by" text NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integrations"."mtd_submissions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"business_id" text NOT NULL,
	"tax_year" text NOT NULL,
	"period_start_date" text NOT NULL,
	"period_end_date" text NOT NULL,
	"body" jsonb NOT NULL,
	"review_hash" text NOT NULL,
	"hmrc_status" integer NOT NULL,
	"correlation_id" text,
	"submitted_by" text NOT NULL,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "integrations"."mtd_calculations" ADD CONSTRAINT "mtd_calculations_submission_id_mtd_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "integrations"."mtd_submissions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hmrc_calls_at_idx" ON "integrations"."hmrc_calls" USING btree ("at");--> statement-breakpoint
CREATE INDEX "mtd_authorisations_client_idx" ON "integrations"."mtd_authorisations" USING btree ("client_id","requested_at");--> statement-breakpoint
CREATE UNIQUE INDEX "mtd_businesses_pk" ON "integrations"."mtd_businesses" USING btree ("client_id","business_id");--> statement-breakpoint
CREATE INDEX "mtd_obligations_client_idx" ON "integrations"."mtd_obligations" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "mtd_income_client_idx" ON "integrations"."mtd_qualifying_income" USING btree ("client_id","tax_year","recorded_at");--> statement-breakpoint
CREATE INDEX "mtd_submissions_client_idx" ON "integrations"."mtd_submissions" USING btree ("client_id","submitted_at");