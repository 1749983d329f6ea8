CREATE TABLE "aml"."acsp_settings" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"acsp_number" text NOT NULL,
	"aml_supervisor" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by_name" text NOT NULL,
	CONSTRAINT "aml_acsp_settings_single_row" CHECK ("aml"."acsp_settings"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "aml"."identity_verifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"person_key" text NOT NULL,
	"person_name" text NOT NULL,
	"personal_code" text NOT NULL,
	"acsp_number" text NOT NULL,
	"aml_supervisor" text NOT NULL,
	"verified_on" date NOT NULL,
	"evidence_document_ids" jsonb NOT NULL,
	"recorded_by" text,
	"recorded_by_name" text NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "aml_identity_verifications_code_check" CHECK ("aml"."identity_verifications"."personal_code" ~ '^[A-Z0-9]{11}$')
);
--> statement-breakpoint
CREATE INDEX "aml_identity_verifications_client_idx" ON "aml"."identity_verifications" USING btree ("client_id","person_key");--> statement-breakpoint
-- An ACSP verification record is never edited, and is deleted only seven years after the verification.
CREATE FUNCTION "aml"."identity_verifications_guard"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' THEN
    RAISE EXCEPTION 'an identity verification record is never changed' USING ERRCODE = 'check_violation';
  END IF;
  IF (OLD.verified_on + interval '7 years')::date > current_date THEN
    RAISE EXCEPTION 'an identity verification record is kept seven years' USING ERRCODE = 'check_violation';
  END IF;
  RETURN OLD;
END $$;
--> statement-breakpoint
CREATE TRIGGER "identity_verifications_guard" BEFORE UPDATE OR DELETE ON "aml"."identity_verifications" FOR EACH ROW EXECUTE FUNCTION "aml"."identity_verifications_guard"();
