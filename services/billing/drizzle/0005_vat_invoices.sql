CREATE TABLE "billing"."document_counters" (
	"kind" text PRIMARY KEY NOT NULL,
	"last" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing"."invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"seq" integer NOT NULL,
	"number" text NOT NULL,
	"user_id" uuid NOT NULL,
	"subscription_id" uuid,
	"checkout_session_id" text,
	"issued_at" timestamp with time zone NOT NULL,
	"client_name" text NOT NULL,
	"email" text NOT NULL,
	"description" text NOT NULL,
	"net" numeric(10, 2) NOT NULL,
	"vat_rate" numeric(5, 2) NOT NULL,
	"vat" numeric(10, 2) NOT NULL,
	"gross" numeric(10, 2) NOT NULL,
	"practice_name" text NOT NULL,
	"practice_address" text NOT NULL,
	"vat_number" text,
	"pdf" "bytea" NOT NULL,
	CONSTRAINT "invoices_kind_check" CHECK ("billing"."invoices"."kind" in ('invoice', 'credit_note'))
);
--> statement-breakpoint
CREATE TABLE "billing"."vat_registrations" (
	"id" serial PRIMARY KEY NOT NULL,
	"vat_number" text,
	"rate" numeric(5, 2) NOT NULL,
	"address" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text
);
--> statement-breakpoint
ALTER TABLE "billing"."checkout_sessions" ADD COLUMN "vat_rate" numeric(5, 2) DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_number_idx" ON "billing"."invoices" USING btree ("number");--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_session_kind_idx" ON "billing"."invoices" USING btree ("checkout_session_id","kind");--> statement-breakpoint
CREATE INDEX "invoices_user_idx" ON "billing"."invoices" USING btree ("user_id","issued_at");--> statement-breakpoint
-- A VAT invoice or credit note is a regulated record, and the VAT registration history says what was
-- charged when: rows are only ever added (VAT Regulations 1995 reg. 14; issue 33).
CREATE FUNCTION "billing".append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% rows are never changed or deleted', TG_TABLE_NAME USING ERRCODE = 'integrity_constraint_violation';
END $$;
--> statement-breakpoint
CREATE TRIGGER invoices_append_only BEFORE UPDATE OR DELETE ON "billing"."invoices" FOR EACH ROW EXECUTE FUNCTION "billing".append_only();
--> statement-breakpoint
CREATE TRIGGER vat_registrations_append_only BEFORE UPDATE OR DELETE ON "billing"."vat_registrations" FOR EACH ROW EXECUTE FUNCTION "billing".append_only();
