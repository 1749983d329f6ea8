CREATE TABLE "deadlines"."identity_people" (
	"client_id" text NOT NULL,
	"person_key" text NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"person_kind" text NOT NULL,
	"started_on" date,
	"details" jsonb,
	"verified_on" date,
	"verified_by" text,
	"verified_source" text,
	"due_on" date,
	"due_source" text,
	"due_rule" text,
	"assigned_accountant_id" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "identity_people_client_id_person_key_pk" PRIMARY KEY("client_id","person_key"),
	CONSTRAINT "identity_people_kind_check" CHECK ("deadlines"."identity_people"."person_kind" in ('director', 'psc', 'relevant_legal_entity'))
);
--> statement-breakpoint
CREATE TABLE "deadlines"."identity_practice_verifications" (
	"client_id" text NOT NULL,
	"person_key" text NOT NULL,
	"verified_on" date NOT NULL,
	"by_name" text NOT NULL,
	"withdrawn_at" timestamp with time zone,
	CONSTRAINT "identity_practice_verifications_client_id_person_key_pk" PRIMARY KEY("client_id","person_key")
);
--> statement-breakpoint
CREATE TABLE "deadlines"."identity_reminders" (
	"client_id" text NOT NULL,
	"person_key" text NOT NULL,
	"due_on" date NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "identity_reminders_client_id_person_key_due_on_pk" PRIMARY KEY("client_id","person_key","due_on")
);
--> statement-breakpoint
ALTER TABLE "deadlines"."client_directory" ADD COLUMN "contact_name" text;--> statement-breakpoint
ALTER TABLE "deadlines"."client_directory" ADD COLUMN "contact_email" text;--> statement-breakpoint
CREATE INDEX "identity_people_open_due_idx" ON "deadlines"."identity_people" USING btree ("due_on","client_id","position") WHERE "deadlines"."identity_people"."verified_on" is null;--> statement-breakpoint
CREATE INDEX "identity_people_accountant_due_idx" ON "deadlines"."identity_people" USING btree ("assigned_accountant_id","due_on","client_id","position");--> statement-breakpoint
CREATE INDEX "identity_people_all_idx" ON "deadlines"."identity_people" USING btree ("due_on","client_id","position");