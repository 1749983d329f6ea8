CREATE TABLE "deadlines"."client_fees" (
	"client_id" text NOT NULL,
	"effective_at" timestamp with time zone NOT NULL,
	"package_name" text,
	"monthly_fee_pence" integer,
	"subscription_status" text NOT NULL,
	CONSTRAINT "client_fees_client_id_effective_at_pk" PRIMARY KEY("client_id","effective_at")
);
--> statement-breakpoint
ALTER TABLE "deadlines"."jobs" ADD COLUMN "open_requests" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "jobs_open_assignee_kind_stage_due_idx" ON "deadlines"."jobs" USING btree ("assignee_id","kind","stage","due_on","id") WHERE "deadlines"."jobs"."status" = 'open';--> statement-breakpoint
CREATE INDEX "jobs_open_waiting_due_idx" ON "deadlines"."jobs" USING btree ("due_on","id") WHERE "deadlines"."jobs"."status" = 'open' and ("deadlines"."jobs"."waiting_on_client" or "deadlines"."jobs"."open_requests" > 0);--> statement-breakpoint
-- Issue 29: jobs already waiting on a client request keep waiting; each client's fee so far holds from the beginning (decision 661).
UPDATE "deadlines"."jobs" j SET "open_requests" = (SELECT count(*)::int FROM "deadlines"."job_requests" q WHERE q."deadline_id" = j."deadline_id" AND q."open") WHERE j."deadline_id" IS NOT NULL;--> statement-breakpoint
INSERT INTO "deadlines"."client_fees" ("client_id", "effective_at", "package_name", "monthly_fee_pence", "subscription_status")
SELECT "client_id", '-infinity', "package_name", "monthly_fee_pence", "subscription_status" FROM "deadlines"."client_directory";
