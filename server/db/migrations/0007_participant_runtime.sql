CREATE TABLE "contacts" (
	"id" serial PRIMARY KEY NOT NULL,
	"submission_id" integer,
	"engagement_id" integer NOT NULL,
	"engagement_site_location_id" integer,
	"screener_id" integer,
	"media_channel_id" integer,
	"language" text DEFAULT 'en' NOT NULL,
	"values_ciphertext" text NOT NULL,
	"accept_terms" boolean DEFAULT false NOT NULL,
	"consented_at" timestamp with time zone,
	"pushed_at" timestamp with time zone,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "o_form_container_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"submission_id" integer NOT NULL,
	"container_id" integer NOT NULL,
	"parent_id" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "o_form_field_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"container_entry_id" integer NOT NULL,
	"field_id" integer NOT NULL,
	"field_value" jsonb,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "o_form_page_metrics" (
	"id" serial PRIMARY KEY NOT NULL,
	"submission_id" integer NOT NULL,
	"o_form_id" integer NOT NULL,
	"type" text DEFAULT 'page' NOT NULL,
	"identity" text NOT NULL,
	"start" timestamp with time zone NOT NULL,
	"stop" timestamp with time zone,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "o_form_submissions" (
	"id" serial PRIMARY KEY NOT NULL,
	"o_form_id" integer NOT NULL,
	"status" text DEFAULT 'in_progress' NOT NULL,
	"media_channel_id" integer,
	"language_id" integer,
	"language" text DEFAULT 'en' NOT NULL,
	"media_channel_url" text,
	"token_hash" text NOT NULL,
	"outcome" text,
	"is_qualified" boolean,
	"completed_at" timestamp with time zone,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "o_form_submissions_status_check" CHECK ("o_form_submissions"."status" in ('in_progress', 'completed', 'abandoned'))
);
--> statement-breakpoint
CREATE TABLE "rms_audits" (
	"id" serial PRIMARY KEY NOT NULL,
	"contact_id" integer NOT NULL,
	"rms_provider_id" integer,
	"rms_provider_name" text NOT NULL,
	"succeeded" boolean DEFAULT false NOT NULL,
	"attempt" integer DEFAULT 1 NOT NULL,
	"response_message" text DEFAULT '' NOT NULL,
	"response_body" text DEFAULT '' NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "referrals" ADD COLUMN "contact_id" integer;--> statement-breakpoint
ALTER TABLE "rms_providers" ADD COLUMN "kind" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "rms_providers" ADD COLUMN "endpoint_url" text;--> statement-breakpoint
ALTER TABLE "rms_providers" ADD COLUMN "signing_secret" text;--> statement-breakpoint
ALTER TABLE "rms_providers" ADD COLUMN "timeout_ms" integer DEFAULT 5000 NOT NULL;--> statement-breakpoint
ALTER TABLE "rms_providers" ADD COLUMN "max_attempts" integer DEFAULT 3 NOT NULL;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_submission_id_o_form_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."o_form_submissions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_engagement_id_engagements_id_fk" FOREIGN KEY ("engagement_id") REFERENCES "public"."engagements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_engagement_site_location_id_engagement_site_locations_id_fk" FOREIGN KEY ("engagement_site_location_id") REFERENCES "public"."engagement_site_locations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_screener_id_screeners_id_fk" FOREIGN KEY ("screener_id") REFERENCES "public"."screeners"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_media_channel_id_media_channels_id_fk" FOREIGN KEY ("media_channel_id") REFERENCES "public"."media_channels"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "o_form_container_entries" ADD CONSTRAINT "o_form_container_entries_submission_id_o_form_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."o_form_submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "o_form_container_entries" ADD CONSTRAINT "o_form_container_entries_container_id_o_form_containers_id_fk" FOREIGN KEY ("container_id") REFERENCES "public"."o_form_containers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "o_form_container_entries" ADD CONSTRAINT "o_form_container_entries_parent_id_o_form_container_entries_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."o_form_container_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "o_form_field_entries" ADD CONSTRAINT "o_form_field_entries_container_entry_id_o_form_container_entries_id_fk" FOREIGN KEY ("container_entry_id") REFERENCES "public"."o_form_container_entries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "o_form_field_entries" ADD CONSTRAINT "o_form_field_entries_field_id_o_form_fields_id_fk" FOREIGN KEY ("field_id") REFERENCES "public"."o_form_fields"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "o_form_page_metrics" ADD CONSTRAINT "o_form_page_metrics_submission_id_o_form_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."o_form_submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "o_form_page_metrics" ADD CONSTRAINT "o_form_page_metrics_o_form_id_o_forms_id_fk" FOREIGN KEY ("o_form_id") REFERENCES "public"."o_forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "o_form_submissions" ADD CONSTRAINT "o_form_submissions_o_form_id_o_forms_id_fk" FOREIGN KEY ("o_form_id") REFERENCES "public"."o_forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "o_form_submissions" ADD CONSTRAINT "o_form_submissions_media_channel_id_media_channels_id_fk" FOREIGN KEY ("media_channel_id") REFERENCES "public"."media_channels"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "o_form_submissions" ADD CONSTRAINT "o_form_submissions_language_id_languages_id_fk" FOREIGN KEY ("language_id") REFERENCES "public"."languages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rms_audits" ADD CONSTRAINT "rms_audits_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rms_audits" ADD CONSTRAINT "rms_audits_rms_provider_id_rms_providers_id_fk" FOREIGN KEY ("rms_provider_id") REFERENCES "public"."rms_providers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contacts_engagement_idx" ON "contacts" USING btree ("engagement_id");--> statement-breakpoint
CREATE INDEX "contacts_submission_idx" ON "contacts" USING btree ("submission_id");--> statement-breakpoint
CREATE INDEX "o_form_container_entries_submission_idx" ON "o_form_container_entries" USING btree ("submission_id");--> statement-breakpoint
CREATE INDEX "o_form_container_entries_parent_idx" ON "o_form_container_entries" USING btree ("parent_id");--> statement-breakpoint
CREATE UNIQUE INDEX "o_form_field_entries_pair_idx" ON "o_form_field_entries" USING btree ("container_entry_id","field_id");--> statement-breakpoint
CREATE INDEX "o_form_page_metrics_form_idx" ON "o_form_page_metrics" USING btree ("o_form_id","identity");--> statement-breakpoint
CREATE INDEX "o_form_page_metrics_submission_idx" ON "o_form_page_metrics" USING btree ("submission_id");--> statement-breakpoint
CREATE UNIQUE INDEX "o_form_submissions_token_idx" ON "o_form_submissions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "o_form_submissions_form_idx" ON "o_form_submissions" USING btree ("o_form_id");--> statement-breakpoint
CREATE INDEX "o_form_submissions_channel_idx" ON "o_form_submissions" USING btree ("media_channel_id");--> statement-breakpoint
CREATE INDEX "rms_audits_created_idx" ON "rms_audits" USING btree ("created");--> statement-breakpoint
CREATE INDEX "rms_audits_contact_idx" ON "rms_audits" USING btree ("contact_id");--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "referrals_contact_idx" ON "referrals" USING btree ("contact_id");--> statement-breakpoint
ALTER TABLE "rms_providers" ADD CONSTRAINT "rms_providers_kind_check" CHECK ("rms_providers"."kind" in ('none', 'webhook'));