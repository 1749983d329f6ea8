CREATE TABLE "identity"."admin_recovery_codes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"admin_id" uuid NOT NULL,
	"code_hash" text NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "identity"."admin_session_second_factors" (
	"session_id" uuid PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"used_at" timestamp with time zone NOT NULL,
	"reference" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "identity"."admin_totp_factors" (
	"admin_id" uuid PRIMARY KEY NOT NULL,
	"secret" text NOT NULL,
	"confirmed_at" timestamp with time zone,
	"last_used_step" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "identity"."admin_recovery_codes" ADD CONSTRAINT "admin_recovery_codes_admin_id_admin_users_id_fk" FOREIGN KEY ("admin_id") REFERENCES "identity"."admin_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity"."admin_session_second_factors" ADD CONSTRAINT "admin_session_second_factors_session_id_admin_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "identity"."admin_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "identity"."admin_totp_factors" ADD CONSTRAINT "admin_totp_factors_admin_id_admin_users_id_fk" FOREIGN KEY ("admin_id") REFERENCES "identity"."admin_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "admin_recovery_codes_admin_hash_idx" ON "identity"."admin_recovery_codes" USING btree ("admin_id","code_hash");