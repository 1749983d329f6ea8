CREATE TABLE "billing"."checkout_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"package_name" text NOT NULL,
	"monthly_fee" numeric(10, 2) NOT NULL,
	"provider" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"url" text NOT NULL,
	"provider_customer_id" text,
	"provider_subscription_id" text,
	"subscription_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	"verified_at" timestamp with time zone,
	CONSTRAINT "checkout_sessions_status_check" CHECK ("billing"."checkout_sessions"."status" in ('open', 'paid', 'completed', 'expired')),
	CONSTRAINT "checkout_sessions_provider_check" CHECK ("billing"."checkout_sessions"."provider" in ('stripe', 'test'))
);
--> statement-breakpoint
CREATE TABLE "billing"."customers" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "billing"."payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"subscription_id" uuid NOT NULL,
	"provider_invoice_id" text,
	"amount" numeric(10, 2) NOT NULL,
	"status" text NOT NULL,
	"occurred_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_status_check" CHECK ("billing"."payments"."status" in ('paid', 'failed'))
);
--> statement-breakpoint
CREATE TABLE "billing"."subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"email" text NOT NULL,
	"package_name" text NOT NULL,
	"monthly_fee" numeric(10, 2) NOT NULL,
	"status" text NOT NULL,
	"provider" text NOT NULL,
	"provider_customer_id" text,
	"provider_subscription_id" text,
	"checkout_session_id" text NOT NULL,
	"current_period_end" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"cancelled_at" timestamp with time zone,
	CONSTRAINT "subscriptions_status_check" CHECK ("billing"."subscriptions"."status" in ('active', 'pending', 'cancelled', 'overdue')),
	CONSTRAINT "subscriptions_provider_check" CHECK ("billing"."subscriptions"."provider" in ('stripe', 'test'))
);
--> statement-breakpoint
CREATE TABLE "billing"."webhook_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billing"."payments" ADD CONSTRAINT "payments_subscription_id_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "billing"."subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "checkout_sessions_user_idx" ON "billing"."checkout_sessions" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "payments_invoice_status_key" ON "billing"."payments" USING btree ("provider_invoice_id","status") WHERE "billing"."payments"."provider_invoice_id" is not null;--> statement-breakpoint
CREATE INDEX "payments_status_occurred_idx" ON "billing"."payments" USING btree ("status","occurred_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_checkout_session_key" ON "billing"."subscriptions" USING btree ("checkout_session_id");--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_provider_subscription_key" ON "billing"."subscriptions" USING btree ("provider","provider_subscription_id") WHERE "billing"."subscriptions"."provider_subscription_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "subscriptions_live_user_key" ON "billing"."subscriptions" USING btree ("user_id") WHERE "billing"."subscriptions"."status" <> 'cancelled';--> statement-breakpoint
CREATE INDEX "subscriptions_status_created_idx" ON "billing"."subscriptions" USING btree ("status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "subscriptions_created_idx" ON "billing"."subscriptions" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);