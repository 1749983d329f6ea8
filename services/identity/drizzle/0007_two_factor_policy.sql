CREATE TABLE "identity"."two_factor_policy" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"required_from" date,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid
);
