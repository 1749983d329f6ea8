CREATE TABLE "identity"."password_resets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"requested_ip" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "identity"."password_resets" ADD CONSTRAINT "password_resets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "identity"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "password_resets_token_hash_idx" ON "identity"."password_resets" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "password_resets_user_idx" ON "identity"."password_resets" USING btree ("user_id","created_at");--> statement-breakpoint
-- Invitation links are kept only as SHA-256 hashes (hex, as hashToken makes them): links already sent keep working.
ALTER TABLE "identity"."staff_invitations" ADD COLUMN "invite_token_hash" text;--> statement-breakpoint
UPDATE "identity"."staff_invitations" SET "invite_token_hash" = encode(sha256(convert_to("invite_token", 'UTF8')), 'hex');--> statement-breakpoint
ALTER TABLE "identity"."staff_invitations" ALTER COLUMN "invite_token_hash" SET NOT NULL;--> statement-breakpoint
DROP INDEX "identity"."staff_invitations_token_idx";--> statement-breakpoint
ALTER TABLE "identity"."staff_invitations" DROP COLUMN "invite_token";--> statement-breakpoint
CREATE UNIQUE INDEX "staff_invitations_token_hash_idx" ON "identity"."staff_invitations" USING btree ("invite_token_hash");
