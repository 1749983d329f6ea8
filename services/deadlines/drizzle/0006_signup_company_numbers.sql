CREATE TABLE "deadlines"."signup_companies" (
	"user_id" text PRIMARY KEY NOT NULL,
	"company_number" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
