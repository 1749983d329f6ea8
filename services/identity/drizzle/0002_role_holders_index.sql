DROP INDEX "identity"."user_roles_active_idx";--> statement-breakpoint
CREATE INDEX "user_roles_active_idx" ON "identity"."user_roles" USING btree ("role","granted_at") WHERE is_active;