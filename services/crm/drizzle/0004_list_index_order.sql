DROP INDEX "crm"."client_upgrades_status_idx";--> statement-breakpoint
DROP INDEX "crm"."client_upgrades_requested_idx";--> statement-breakpoint
DROP INDEX "crm"."clients_created_at_idx";--> statement-breakpoint
DROP INDEX "crm"."clients_registration_date_idx";--> statement-breakpoint
DROP INDEX "crm"."clients_status_created_idx";--> statement-breakpoint
DROP INDEX "crm"."clients_status_registration_idx";--> statement-breakpoint
DROP INDEX "crm"."clients_package_created_idx";--> statement-breakpoint
DROP INDEX "crm"."clients_package_registration_idx";--> statement-breakpoint
DROP INDEX "crm"."clients_accountant_idx";--> statement-breakpoint
DROP INDEX "crm"."communications_occurred_idx";--> statement-breakpoint
DROP INDEX "crm"."communications_client_idx";--> statement-breakpoint
DROP INDEX "crm"."leads_created_at_idx";--> statement-breakpoint
DROP INDEX "crm"."leads_stage_created_idx";--> statement-breakpoint
DROP INDEX "crm"."leads_source_created_idx";--> statement-breakpoint
DROP INDEX "crm"."tasks_created_at_idx";--> statement-breakpoint
CREATE INDEX "client_upgrades_status_idx" ON "crm"."client_upgrades" USING btree ("status","requested_at");--> statement-breakpoint
CREATE INDEX "client_upgrades_requested_idx" ON "crm"."client_upgrades" USING btree ("requested_at","id");--> statement-breakpoint
CREATE INDEX "clients_created_at_idx" ON "crm"."clients" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "clients_registration_date_idx" ON "crm"."clients" USING btree ("registration_date","id");--> statement-breakpoint
CREATE INDEX "clients_status_created_idx" ON "crm"."clients" USING btree ("subscription_status","created_at","id");--> statement-breakpoint
CREATE INDEX "clients_status_registration_idx" ON "crm"."clients" USING btree ("subscription_status","registration_date","id");--> statement-breakpoint
CREATE INDEX "clients_package_created_idx" ON "crm"."clients" USING btree ("package_name","created_at","id");--> statement-breakpoint
CREATE INDEX "clients_package_registration_idx" ON "crm"."clients" USING btree ("package_name","registration_date","id");--> statement-breakpoint
CREATE INDEX "clients_accountant_idx" ON "crm"."clients" USING btree ("assigned_accountant_id","created_at");--> statement-breakpoint
CREATE INDEX "communications_occurred_idx" ON "crm"."communications" USING btree ("occurred_at","id");--> statement-breakpoint
CREATE INDEX "communications_client_idx" ON "crm"."communications" USING btree ("client_id","occurred_at");--> statement-breakpoint
CREATE INDEX "leads_created_at_idx" ON "crm"."leads" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "leads_stage_created_idx" ON "crm"."leads" USING btree ("stage","created_at","id");--> statement-breakpoint
CREATE INDEX "leads_source_created_idx" ON "crm"."leads" USING btree ("source","created_at","id");--> statement-breakpoint
CREATE INDEX "tasks_created_at_idx" ON "crm"."tasks" USING btree ("created_at","id");