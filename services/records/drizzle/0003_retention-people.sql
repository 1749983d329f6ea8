CREATE TABLE "records"."acsp_verifications" (
	"client_id" text NOT NULL,
	"person_key" text NOT NULL,
	"verified_on" date NOT NULL,
	"person_name" text NOT NULL,
	CONSTRAINT "acsp_verifications_client_id_person_key_verified_on_pk" PRIMARY KEY("client_id","person_key","verified_on")
);
--> statement-breakpoint
CREATE TABLE "records"."audit_checkpoints" (
	"chain" text PRIMARY KEY NOT NULL,
	"seq" integer NOT NULL,
	"hash" text NOT NULL,
	"removed" integer NOT NULL,
	"run_id" uuid NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "records"."sar_requests" ALTER COLUMN "user_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "records"."sar_requests" ADD COLUMN "subject" text DEFAULT 'client_user' NOT NULL;--> statement-breakpoint
ALTER TABLE "records"."sar_requests" ADD COLUMN "person_key" text;--> statement-breakpoint
-- A checkpoint only moves forward (issue 34): removing it, or moving it back, would let a removed
-- stretch of a chain pass the check as whole.
CREATE OR REPLACE FUNCTION records.checkpoint_forward_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' OR NEW.seq <= OLD.seq OR NEW.chain <> OLD.chain THEN
    RAISE EXCEPTION 'records.audit_checkpoints only moves forward';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER audit_checkpoints_forward_only BEFORE UPDATE OR DELETE ON records.audit_checkpoints
  FOR EACH ROW EXECUTE FUNCTION records.checkpoint_forward_only();
