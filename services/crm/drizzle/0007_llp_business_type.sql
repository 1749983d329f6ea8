ALTER TABLE "crm"."clients" DROP CONSTRAINT "clients_business_type_check";--> statement-breakpoint
ALTER TABLE "crm"."leads" DROP CONSTRAINT "leads_business_type_check";--> statement-breakpoint
ALTER TABLE "crm"."clients" ADD CONSTRAINT "clients_business_type_check" CHECK ("crm"."clients"."business_type" in ('sole_trader', 'partnership', 'limited', 'llp'));--> statement-breakpoint
ALTER TABLE "crm"."leads" ADD CONSTRAINT "leads_business_type_check" CHECK ("crm"."leads"."business_type" is null or "crm"."leads"."business_type" in ('sole_trader', 'partnership', 'limited', 'llp'));