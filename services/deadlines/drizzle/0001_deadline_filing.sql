ALTER TABLE "deadlines"."deadlines" ADD COLUMN "filed_on" date;--> statement-breakpoint
ALTER TABLE "deadlines"."deadlines" ADD COLUMN "reference" text;--> statement-breakpoint
ALTER TABLE "deadlines"."deadlines" ADD COLUMN "filed_by_previous_agent" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "deadlines_done_at_idx" ON "deadlines"."deadlines" USING btree ("done_at","id") WHERE "deadlines"."deadlines"."done_at" is not null;