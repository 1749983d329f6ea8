CREATE TABLE "crm"."client_identifiers" (
	"client_id" uuid PRIMARY KEY NOT NULL,
	"utr" text,
	"vat_number" text,
	"paye_reference" text,
	"accounts_office_reference" text,
	"nino" text,
	"registered_office" text,
	"sic_codes" text[] DEFAULT '{}'::text[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by_id" text,
	"updated_by_name" text
);
--> statement-breakpoint
CREATE TABLE "crm"."client_signals" (
	"client_id" uuid PRIMARY KEY NOT NULL,
	"due_diligence" text DEFAULT 'outstanding' NOT NULL,
	"letter" text DEFAULT 'none' NOT NULL,
	"overdue_deadline_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "crm"."timeline_entries" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "crm"."timeline_entries_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"source_id" text NOT NULL,
	"client_id" uuid,
	"user_id" text,
	"kind" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"summary" text NOT NULL,
	"actor_name" text,
	"source" text NOT NULL,
	"ref_type" text,
	"ref_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "crm"."tasks" ADD COLUMN "deadline_id" text;--> statement-breakpoint
ALTER TABLE "crm"."client_identifiers" ADD CONSTRAINT "client_identifiers_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "crm"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "timeline_source_idx" ON "crm"."timeline_entries" USING btree ("source_id");--> statement-breakpoint
CREATE INDEX "timeline_client_at_idx" ON "crm"."timeline_entries" USING btree ("client_id","at","id");--> statement-breakpoint
CREATE INDEX "timeline_orphan_user_idx" ON "crm"."timeline_entries" USING btree ("user_id") WHERE "crm"."timeline_entries"."client_id" is null;