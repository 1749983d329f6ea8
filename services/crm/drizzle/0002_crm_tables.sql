CREATE TABLE "crm"."client_totals" (
	"subscription_status" text PRIMARY KEY NOT NULL,
	"clients" bigint DEFAULT 0 NOT NULL,
	"revenue" numeric(14, 2) DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "crm"."client_upgrades" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"from_package" text,
	"to_package" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"notes" text,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" text,
	CONSTRAINT "client_upgrades_status_check" CHECK ("crm"."client_upgrades"."status" in ('pending', 'approved', 'rejected', 'completed'))
);
--> statement-breakpoint
CREATE TABLE "crm"."clients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid,
	"company_name" text NOT NULL,
	"contact_name" text,
	"contact_email" text NOT NULL,
	"contact_phone" text,
	"business_type" text DEFAULT 'limited' NOT NULL,
	"package_name" text,
	"monthly_fee" numeric(10, 2) NOT NULL,
	"subscription_status" text DEFAULT 'pending' NOT NULL,
	"next_billing_date" date,
	"registration_date" timestamp with time zone DEFAULT now() NOT NULL,
	"onboarding_completed" boolean DEFAULT false NOT NULL,
	"employees_count" integer DEFAULT 0 NOT NULL,
	"assigned_accountant_id" uuid,
	"source_lead_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "clients_status_check" CHECK ("crm"."clients"."subscription_status" in ('active', 'pending', 'cancelled', 'overdue')),
	CONSTRAINT "clients_business_type_check" CHECK ("crm"."clients"."business_type" in ('sole_trader', 'partnership', 'limited')),
	CONSTRAINT "clients_employees_check" CHECK ("crm"."clients"."employees_count" >= 0),
	CONSTRAINT "clients_fee_check" CHECK ("crm"."clients"."monthly_fee" >= 0)
);
--> statement-breakpoint
CREATE TABLE "crm"."communications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"direction" text NOT NULL,
	"subject" text NOT NULL,
	"body" text,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text,
	CONSTRAINT "communications_channel_check" CHECK ("crm"."communications"."channel" in ('email', 'phone', 'meeting', 'letter', 'portal')),
	CONSTRAINT "communications_direction_check" CHECK ("crm"."communications"."direction" in ('inbound', 'outbound'))
);
--> statement-breakpoint
CREATE TABLE "crm"."ghl_sync" (
	"id" integer PRIMARY KEY DEFAULT 1 NOT NULL,
	"last_import_at" timestamp with time zone,
	"last_import_total" integer,
	"last_error" text,
	CONSTRAINT "ghl_sync_single_row" CHECK ("crm"."ghl_sync"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "crm"."lead_totals" (
	"stage" text PRIMARY KEY NOT NULL,
	"leads" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "crm"."leads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"phone" text,
	"company_name" text,
	"stage" text DEFAULT 'new_enquiry' NOT NULL,
	"business_type" text,
	"quote_amount" numeric(12, 2),
	"source" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"notes" text,
	"external_id" text,
	"converted_client_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "leads_stage_check" CHECK ("crm"."leads"."stage" in ('new_enquiry', 'qualified', 'proposal_sent', 'negotiation', 'won', 'lost')),
	CONSTRAINT "leads_business_type_check" CHECK ("crm"."leads"."business_type" is null or "crm"."leads"."business_type" in ('sole_trader', 'partnership', 'limited'))
);
--> statement-breakpoint
CREATE TABLE "crm"."tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"client_id" uuid,
	"assignee_id" uuid,
	"due_date" date,
	"status" text DEFAULT 'pending' NOT NULL,
	"priority" text DEFAULT 'medium' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone,
	CONSTRAINT "tasks_status_check" CHECK ("crm"."tasks"."status" in ('pending', 'in_progress', 'completed', 'cancelled')),
	CONSTRAINT "tasks_priority_check" CHECK ("crm"."tasks"."priority" in ('low', 'medium', 'high', 'urgent'))
);
--> statement-breakpoint
CREATE TABLE "crm"."team_members" (
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"is_active" boolean NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"changed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "team_members_user_id_role_pk" PRIMARY KEY("user_id","role")
);
--> statement-breakpoint
ALTER TABLE "crm"."client_upgrades" ADD CONSTRAINT "client_upgrades_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "crm"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm"."communications" ADD CONSTRAINT "communications_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "crm"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm"."tasks" ADD CONSTRAINT "tasks_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "crm"."clients"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "client_upgrades_status_idx" ON "crm"."client_upgrades" USING btree ("status","requested_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "client_upgrades_requested_idx" ON "crm"."client_upgrades" USING btree ("requested_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "client_upgrades_client_idx" ON "crm"."client_upgrades" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "clients_user_id_key" ON "crm"."clients" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "clients_source_lead_id_key" ON "crm"."clients" USING btree ("source_lead_id");--> statement-breakpoint
CREATE INDEX "clients_company_name_trgm" ON "crm"."clients" USING gin ("company_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "clients_contact_email_trgm" ON "crm"."clients" USING gin ("contact_email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "clients_contact_name_trgm" ON "crm"."clients" USING gin ("contact_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "clients_created_at_idx" ON "crm"."clients" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "clients_registration_date_idx" ON "crm"."clients" USING btree ("registration_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "clients_status_created_idx" ON "crm"."clients" USING btree ("subscription_status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "clients_status_registration_idx" ON "crm"."clients" USING btree ("subscription_status","registration_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "clients_package_created_idx" ON "crm"."clients" USING btree ("package_name","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "clients_package_registration_idx" ON "crm"."clients" USING btree ("package_name","registration_date" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "clients_accountant_idx" ON "crm"."clients" USING btree ("assigned_accountant_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "communications_subject_trgm" ON "crm"."communications" USING gin ("subject" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "communications_occurred_idx" ON "crm"."communications" USING btree ("occurred_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "communications_created_idx" ON "crm"."communications" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "communications_client_idx" ON "crm"."communications" USING btree ("client_id","occurred_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "leads_external_id_key" ON "crm"."leads" USING btree ("external_id") WHERE "crm"."leads"."external_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "leads_email_key" ON "crm"."leads" USING btree (lower("email")) WHERE "crm"."leads"."email" is not null;--> statement-breakpoint
CREATE INDEX "leads_name_trgm" ON "crm"."leads" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "leads_email_trgm" ON "crm"."leads" USING gin ("email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "leads_company_name_trgm" ON "crm"."leads" USING gin ("company_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "leads_created_at_idx" ON "crm"."leads" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "leads_stage_created_idx" ON "crm"."leads" USING btree ("stage","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "leads_source_created_idx" ON "crm"."leads" USING btree ("source","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "tasks_title_trgm" ON "crm"."tasks" USING gin ("title" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "tasks_status_due_idx" ON "crm"."tasks" USING btree ("status","due_date");--> statement-breakpoint
CREATE INDEX "tasks_created_at_idx" ON "crm"."tasks" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "tasks_client_idx" ON "crm"."tasks" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "tasks_assignee_idx" ON "crm"."tasks" USING btree ("assignee_id");--> statement-breakpoint
CREATE INDEX "team_members_active_idx" ON "crm"."team_members" USING btree ("is_active","role");