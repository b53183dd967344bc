ALTER TABLE "contacts" ADD COLUMN "email_match" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "phone_match" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "duplicate_of" integer;--> statement-breakpoint
ALTER TABLE "engagements" ADD COLUMN "duplicate_window_days" integer DEFAULT 90 NOT NULL;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_duplicate_of_contacts_id_fk" FOREIGN KEY ("duplicate_of") REFERENCES "public"."contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contacts_email_match_idx" ON "contacts" USING btree ("engagement_id","email_match") WHERE "contacts"."email_match" is not null;--> statement-breakpoint
CREATE INDEX "contacts_phone_match_idx" ON "contacts" USING btree ("engagement_id","phone_match") WHERE "contacts"."phone_match" is not null;--> statement-breakpoint
CREATE INDEX "contacts_duplicate_of_idx" ON "contacts" USING btree ("duplicate_of") WHERE "contacts"."duplicate_of" is not null;--> statement-breakpoint
ALTER TABLE "engagements" ADD CONSTRAINT "engagements_duplicate_window_check" CHECK ("engagements"."duplicate_window_days" between 0 and 3650);