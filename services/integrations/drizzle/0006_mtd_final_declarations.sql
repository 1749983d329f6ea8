CREATE TABLE "integrations"."mtd_final_declarations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"tax_year" text NOT NULL,
	"calculation_id" text NOT NULL,
	"hmrc_status" integer NOT NULL,
	"correlation_id" text,
	"submitted_by" text NOT NULL,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "mtd_final_declarations_client_idx" ON "integrations"."mtd_final_declarations" USING btree ("client_id","submitted_at");