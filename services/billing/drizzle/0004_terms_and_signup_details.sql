CREATE TABLE "billing"."accepted_terms" (
	"user_id" uuid NOT NULL,
	"package_name" text NOT NULL,
	"letter_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"signed_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "accepted_terms_user_id_package_name_pk" PRIMARY KEY("user_id","package_name")
);
--> statement-breakpoint
ALTER TABLE "billing"."customers" ADD COLUMN "business_type" text;--> statement-breakpoint
ALTER TABLE "billing"."customers" ADD COLUMN "company_number" text;--> statement-breakpoint
ALTER TABLE "billing"."customers" ADD COLUMN "phone" text;