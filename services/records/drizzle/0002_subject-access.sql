CREATE TABLE "records"."sar_files" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"request_id" uuid NOT NULL,
	"path" text NOT NULL,
	"content" "bytea" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "records"."sar_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"client_id" text NOT NULL,
	"user_id" text NOT NULL,
	"person_name" text NOT NULL,
	"requested_on" date NOT NULL,
	"due_on" date NOT NULL,
	"status" text NOT NULL,
	"answered" jsonb NOT NULL,
	"files" integer DEFAULT 0 NOT NULL,
	"archive" "bytea",
	"requested_by_id" text NOT NULL,
	"requested_by_name" text NOT NULL,
	"downloaded_by_id" text,
	"downloaded_by_name" text,
	"downloaded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "records_sar_files_request_idx" ON "records"."sar_files" USING btree ("request_id");--> statement-breakpoint
CREATE INDEX "records_sar_created_idx" ON "records"."sar_requests" USING btree ("created_at");