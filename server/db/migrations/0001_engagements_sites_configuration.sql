CREATE TABLE "campaign_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "campaign_types_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "contact_fields" (
	"id" serial PRIMARY KEY NOT NULL,
	"label" text NOT NULL,
	"name" text NOT NULL,
	"required" boolean DEFAULT false NOT NULL,
	"type" text DEFAULT 'text' NOT NULL,
	"translations" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "contact_fields_name_unique" UNIQUE("name"),
	CONSTRAINT "contact_fields_type_check" CHECK ("contact_fields"."type" in ('text', 'email', 'phone', 'zip', 'date', 'checkbox'))
);
--> statement-breakpoint
CREATE TABLE "engagement_campaign_types" (
	"engagement_id" integer NOT NULL,
	"campaign_type_id" integer NOT NULL,
	CONSTRAINT "engagement_campaign_types_engagement_id_campaign_type_id_pk" PRIMARY KEY("engagement_id","campaign_type_id")
);
--> statement-breakpoint
CREATE TABLE "engagement_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"engagement_id" integer NOT NULL,
	"filename" text NOT NULL,
	"mime" text NOT NULL,
	"size" integer NOT NULL,
	"storage_key" text NOT NULL,
	"created_by" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "engagement_files_storage_key_unique" UNIQUE("storage_key")
);
--> statement-breakpoint
CREATE TABLE "engagement_indications" (
	"engagement_id" integer NOT NULL,
	"indication_id" integer NOT NULL,
	CONSTRAINT "engagement_indications_engagement_id_indication_id_pk" PRIMARY KEY("engagement_id","indication_id")
);
--> statement-breakpoint
CREATE TABLE "engagement_site_locations" (
	"id" serial PRIMARY KEY NOT NULL,
	"engagement_id" integer NOT NULL,
	"site_location_id" integer NOT NULL,
	"radius" integer,
	"rms_site_identification" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "engagement_target_groups" (
	"engagement_id" integer NOT NULL,
	"target_group_id" integer NOT NULL,
	CONSTRAINT "engagement_target_groups_engagement_id_target_group_id_pk" PRIMARY KEY("engagement_id","target_group_id")
);
--> statement-breakpoint
CREATE TABLE "engagement_therapeutic_areas" (
	"engagement_id" integer NOT NULL,
	"therapeutic_area_id" integer NOT NULL,
	CONSTRAINT "engagement_therapeutic_areas_engagement_id_therapeutic_area_id_pk" PRIMARY KEY("engagement_id","therapeutic_area_id")
);
--> statement-breakpoint
CREATE TABLE "engagements" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"sponsor_id" integer NOT NULL,
	"sponsor_contact" text,
	"start_date" date,
	"end_date" date,
	"is_active" boolean DEFAULT true NOT NULL,
	"radius" integer DEFAULT 25 NOT NULL,
	"media_live_date" date,
	"media_end_date" date,
	"g6_url" text,
	"protocol_identifier" text,
	"study_subject_identifier" text,
	"protocol_version" text,
	"phase" text,
	"amendment_date" date,
	"first_patient_in_date" date,
	"last_patient_in_date" date,
	"rare_disease" boolean DEFAULT false NOT NULL,
	"cell_gene_therapy" boolean DEFAULT false NOT NULL,
	"dei_focus" boolean DEFAULT false NOT NULL,
	"dei_target" numeric,
	"identification" text NOT NULL,
	"target_participant_count" integer,
	"rms_provider_id" integer,
	"rms_sponsor_identifier" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "engagements_phase_check" CHECK ("engagements"."phase" is null or "engagements"."phase" in ('I', 'II', 'III', 'IV', 'N/A'))
);
--> statement-breakpoint
CREATE TABLE "generic_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"key_name" text NOT NULL,
	"message" text NOT NULL,
	"translations" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"message_type" text DEFAULT 'default' NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "generic_messages_key_name_unique" UNIQUE("key_name"),
	CONSTRAINT "generic_messages_type_check" CHECK ("generic_messages"."message_type" in ('default', 'global'))
);
--> statement-breakpoint
CREATE TABLE "indications" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "indications_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "languages" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"iso_code" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_default" boolean DEFAULT false NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "question_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "question_categories_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "referrals" (
	"id" serial PRIMARY KEY NOT NULL,
	"engagement_id" integer NOT NULL,
	"engagement_site_location_id" integer,
	"is_screened" boolean DEFAULT false NOT NULL,
	"is_randomized" boolean DEFAULT false NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rms_providers" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "rms_providers_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "site_locations" (
	"id" serial PRIMARY KEY NOT NULL,
	"site_id" text,
	"name" text NOT NULL,
	"description" text,
	"country_id" integer,
	"street_address" text,
	"unit_number" text,
	"city" text,
	"state" text,
	"zip_code" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_virtual" boolean DEFAULT false NOT NULL,
	"pi_name" text,
	"latitude" double precision,
	"longitude" double precision,
	"site_location_type" text,
	"irb_type" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "site_locations_type_check" CHECK ("site_locations"."site_location_type" is null or "site_locations"."site_location_type" in ('academic_hospital', 'clinical_research_center', 'neurology_disease_center')),
	CONSTRAINT "site_locations_irb_check" CHECK ("site_locations"."irb_type" is null or "site_locations"."irb_type" in ('local', 'single'))
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "tags_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "target_groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "target_groups_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE TABLE "therapeutic_areas" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "therapeutic_areas_name_unique" UNIQUE("name")
);
--> statement-breakpoint
ALTER TABLE "engagement_campaign_types" ADD CONSTRAINT "engagement_campaign_types_engagement_id_engagements_id_fk" FOREIGN KEY ("engagement_id") REFERENCES "public"."engagements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engagement_campaign_types" ADD CONSTRAINT "engagement_campaign_types_campaign_type_id_campaign_types_id_fk" FOREIGN KEY ("campaign_type_id") REFERENCES "public"."campaign_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engagement_files" ADD CONSTRAINT "engagement_files_engagement_id_engagements_id_fk" FOREIGN KEY ("engagement_id") REFERENCES "public"."engagements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engagement_files" ADD CONSTRAINT "engagement_files_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engagement_indications" ADD CONSTRAINT "engagement_indications_engagement_id_engagements_id_fk" FOREIGN KEY ("engagement_id") REFERENCES "public"."engagements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engagement_indications" ADD CONSTRAINT "engagement_indications_indication_id_indications_id_fk" FOREIGN KEY ("indication_id") REFERENCES "public"."indications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engagement_site_locations" ADD CONSTRAINT "engagement_site_locations_engagement_id_engagements_id_fk" FOREIGN KEY ("engagement_id") REFERENCES "public"."engagements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engagement_site_locations" ADD CONSTRAINT "engagement_site_locations_site_location_id_site_locations_id_fk" FOREIGN KEY ("site_location_id") REFERENCES "public"."site_locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engagement_target_groups" ADD CONSTRAINT "engagement_target_groups_engagement_id_engagements_id_fk" FOREIGN KEY ("engagement_id") REFERENCES "public"."engagements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engagement_target_groups" ADD CONSTRAINT "engagement_target_groups_target_group_id_target_groups_id_fk" FOREIGN KEY ("target_group_id") REFERENCES "public"."target_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engagement_therapeutic_areas" ADD CONSTRAINT "engagement_therapeutic_areas_engagement_id_engagements_id_fk" FOREIGN KEY ("engagement_id") REFERENCES "public"."engagements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engagement_therapeutic_areas" ADD CONSTRAINT "engagement_therapeutic_areas_therapeutic_area_id_therapeutic_areas_id_fk" FOREIGN KEY ("therapeutic_area_id") REFERENCES "public"."therapeutic_areas"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engagements" ADD CONSTRAINT "engagements_sponsor_id_sponsors_id_fk" FOREIGN KEY ("sponsor_id") REFERENCES "public"."sponsors"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engagements" ADD CONSTRAINT "engagements_rms_provider_id_rms_providers_id_fk" FOREIGN KEY ("rms_provider_id") REFERENCES "public"."rms_providers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_engagement_id_engagements_id_fk" FOREIGN KEY ("engagement_id") REFERENCES "public"."engagements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_engagement_site_location_id_engagement_site_locations_id_fk" FOREIGN KEY ("engagement_site_location_id") REFERENCES "public"."engagement_site_locations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "site_locations" ADD CONSTRAINT "site_locations_country_id_countries_id_fk" FOREIGN KEY ("country_id") REFERENCES "public"."countries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_fields_label_idx" ON "contact_fields" USING btree ("label");--> statement-breakpoint
CREATE INDEX "engagement_campaign_types_target_idx" ON "engagement_campaign_types" USING btree ("campaign_type_id");--> statement-breakpoint
CREATE INDEX "engagement_files_engagement_idx" ON "engagement_files" USING btree ("engagement_id");--> statement-breakpoint
CREATE INDEX "engagement_indications_target_idx" ON "engagement_indications" USING btree ("indication_id");--> statement-breakpoint
CREATE UNIQUE INDEX "engagement_site_locations_pair_idx" ON "engagement_site_locations" USING btree ("engagement_id","site_location_id");--> statement-breakpoint
CREATE INDEX "engagement_site_locations_site_idx" ON "engagement_site_locations" USING btree ("site_location_id");--> statement-breakpoint
CREATE INDEX "engagement_target_groups_target_idx" ON "engagement_target_groups" USING btree ("target_group_id");--> statement-breakpoint
CREATE INDEX "engagement_therapeutic_areas_target_idx" ON "engagement_therapeutic_areas" USING btree ("therapeutic_area_id");--> statement-breakpoint
CREATE UNIQUE INDEX "engagements_identification_idx" ON "engagements" USING btree ("identification");--> statement-breakpoint
CREATE INDEX "engagements_sponsor_idx" ON "engagements" USING btree ("sponsor_id","is_active");--> statement-breakpoint
CREATE INDEX "engagements_default_sort_idx" ON "engagements" USING btree ("is_active","end_date","name");--> statement-breakpoint
CREATE UNIQUE INDEX "languages_iso_code_idx" ON "languages" USING btree (lower("iso_code"));--> statement-breakpoint
CREATE INDEX "referrals_engagement_idx" ON "referrals" USING btree ("engagement_id");--> statement-breakpoint
CREATE UNIQUE INDEX "site_locations_site_id_idx" ON "site_locations" USING btree ("site_id");--> statement-breakpoint
CREATE INDEX "site_locations_default_sort_idx" ON "site_locations" USING btree ("is_active","name");