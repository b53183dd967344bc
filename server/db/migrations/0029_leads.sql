CREATE TABLE "lead_site_matches" (
	"lead_id" integer NOT NULL,
	"engagement_site_location_id" integer NOT NULL,
	"distance_miles" double precision NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lead_site_matches_lead_id_engagement_site_location_id_pk" PRIMARY KEY("lead_id","engagement_site_location_id")
);
--> statement-breakpoint
CREATE TABLE "leads" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"submission_id" integer,
	"engagement_ids" integer[] NOT NULL,
	"screener_id" integer,
	"media_channel_id" integer,
	"language" text DEFAULT 'en' NOT NULL,
	"values_ciphertext" text NOT NULL,
	"zip_ciphertext" text,
	"nearest_site_miles" double precision,
	"consented_at" timestamp with time zone NOT NULL,
	"consent_text" text NOT NULL,
	"consent_text_sha256" text NOT NULL,
	"survey_id" integer,
	"survey_version" integer,
	"email_match" text,
	"phone_match" text,
	"duplicate_of" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "leads_kind_check" CHECK ("leads"."kind" in ('notQualified', 'noTrialSites', 'notActive'))
);
--> statement-breakpoint
ALTER TABLE "lead_site_matches" ADD CONSTRAINT "lead_site_matches_lead_id_leads_id_fk" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_site_matches" ADD CONSTRAINT "lead_site_matches_engagement_site_location_id_engagement_site_locations_id_fk" FOREIGN KEY ("engagement_site_location_id") REFERENCES "public"."engagement_site_locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_submission_id_o_form_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."o_form_submissions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_screener_id_screeners_id_fk" FOREIGN KEY ("screener_id") REFERENCES "public"."screeners"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_media_channel_id_media_channels_id_fk" FOREIGN KEY ("media_channel_id") REFERENCES "public"."media_channels"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_survey_id_o_forms_id_fk" FOREIGN KEY ("survey_id") REFERENCES "public"."o_forms"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "leads" ADD CONSTRAINT "leads_duplicate_of_leads_id_fk" FOREIGN KEY ("duplicate_of") REFERENCES "public"."leads"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lead_site_matches_link_idx" ON "lead_site_matches" USING btree ("engagement_site_location_id");--> statement-breakpoint
CREATE UNIQUE INDEX "leads_submission_idx" ON "leads" USING btree ("submission_id") WHERE "leads"."submission_id" is not null;--> statement-breakpoint
CREATE INDEX "leads_created_idx" ON "leads" USING btree ("created");--> statement-breakpoint
CREATE INDEX "leads_engagements_idx" ON "leads" USING gin ("engagement_ids");--> statement-breakpoint
CREATE INDEX "leads_email_match_idx" ON "leads" USING btree ("email_match") WHERE "leads"."email_match" is not null;--> statement-breakpoint
CREATE INDEX "leads_phone_match_idx" ON "leads" USING btree ("phone_match") WHERE "leads"."phone_match" is not null;