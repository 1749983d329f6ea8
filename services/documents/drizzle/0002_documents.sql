CREATE TABLE "documents"."client_directory" (
	"client_id" text PRIMARY KEY NOT NULL,
	"user_id" text,
	"company_name" text NOT NULL,
	"contact_email" text NOT NULL,
	"assigned_accountant_id" text,
	"source_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "documents"."client_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"filename" text NOT NULL,
	"document_type" text NOT NULL,
	"file_path" text NOT NULL,
	"file_size" integer NOT NULL,
	"content_type" text NOT NULL,
	"description" text,
	"uploaded_by" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_text" text DEFAULT '' NOT NULL,
	CONSTRAINT "client_documents_status_check" CHECK ("documents"."client_documents"."status" in ('active', 'completed', 'pending')),
	CONSTRAINT "client_documents_size_check" CHECK ("documents"."client_documents"."file_size" >= 0 and "documents"."client_documents"."file_size" <= 10485760)
);
--> statement-breakpoint
CREATE TABLE "documents"."document_access_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"document_id" uuid NOT NULL,
	"action" text NOT NULL,
	"principal_kind" text NOT NULL,
	"principal_id" text NOT NULL,
	"principal_name" text NOT NULL,
	"ip" text,
	"user_agent" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_access_log_action_check" CHECK ("documents"."document_access_log"."action" in ('view', 'download', 'upload'))
);
--> statement-breakpoint
CREATE INDEX "client_directory_user_idx" ON "documents"."client_directory" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "client_directory_accountant_idx" ON "documents"."client_directory" USING btree ("assigned_accountant_id");--> statement-breakpoint
CREATE INDEX "client_directory_company_trgm_idx" ON "documents"."client_directory" USING gin ("company_name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "client_directory_email_trgm_idx" ON "documents"."client_directory" USING gin ("contact_email" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "client_documents_created_idx" ON "documents"."client_documents" USING btree ("created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "client_documents_client_created_idx" ON "documents"."client_documents" USING btree ("client_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "client_documents_search_trgm_idx" ON "documents"."client_documents" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "client_documents_status_idx" ON "documents"."client_documents" USING btree ("status");--> statement-breakpoint
CREATE INDEX "document_access_log_document_idx" ON "documents"."document_access_log" USING btree ("document_id","at" DESC NULLS LAST);