ALTER TABLE "contacts" ADD COLUMN "consent_text" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "consent_text_sha256" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "consent_survey_id" integer;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "consent_survey_version" integer;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_consent_survey_id_o_forms_id_fk" FOREIGN KEY ("consent_survey_id") REFERENCES "public"."o_forms"("id") ON DELETE set null ON UPDATE no action;