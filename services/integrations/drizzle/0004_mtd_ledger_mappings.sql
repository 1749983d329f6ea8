CREATE TABLE "integrations"."mtd_ledger_mappings" (
	"client_id" text NOT NULL,
	"account_key" text NOT NULL,
	"account_name" text NOT NULL,
	"category" text NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mtd_ledger_mappings_client_id_account_key_pk" PRIMARY KEY("client_id","account_key")
);
