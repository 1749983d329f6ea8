CREATE TABLE "deadlines"."mtd_obligations" (
	"client_id" text PRIMARY KEY NOT NULL,
	"refreshed_at" timestamp with time zone NOT NULL,
	"obligations" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "deadlines"."deadlines" DROP CONSTRAINT "deadlines_source_check";--> statement-breakpoint
ALTER TABLE "deadlines"."deadlines" ADD CONSTRAINT "deadlines_source_check" CHECK ("deadlines"."deadlines"."source" in ('companies_house', 'rule', 'hmrc'));