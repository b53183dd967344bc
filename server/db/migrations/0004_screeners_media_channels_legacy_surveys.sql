CREATE TABLE "contact_field_screeners" (
	"id" serial PRIMARY KEY NOT NULL,
	"screener_id" integer NOT NULL,
	"contact_field_id" integer NOT NULL,
	"weight" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "engagement_options" (
	"id" serial PRIMARY KEY NOT NULL,
	"engagement_id" integer NOT NULL,
	"option_id" integer NOT NULL,
	"is_disqualified" boolean DEFAULT false NOT NULL,
	"weight" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "engagement_screeners" (
	"screener_id" integer NOT NULL,
	"engagement_id" integer NOT NULL,
	CONSTRAINT "engagement_screeners_screener_id_engagement_id_pk" PRIMARY KEY("screener_id","engagement_id")
);
--> statement-breakpoint
CREATE TABLE "media_channel_surveys" (
	"id" serial PRIMARY KEY NOT NULL,
	"media_channel_id" integer NOT NULL,
	"o_form_identity" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "media_channels" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"domain" text NOT NULL,
	"screener_id" integer NOT NULL,
	"type" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"share" integer DEFAULT 0 NOT NULL,
	"submissions_started" integer DEFAULT 0 NOT NULL,
	"submissions_completed" integer DEFAULT 0 NOT NULL,
	"submissions_qualified" integer DEFAULT 0 NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "media_channels_type_check" CHECK ("media_channels"."type" in ('Spectrum Website', 'Partner Website', 'Social Media', 'Other'))
);
--> statement-breakpoint
CREATE TABLE "screener_languages" (
	"screener_id" integer NOT NULL,
	"language_id" integer NOT NULL,
	CONSTRAINT "screener_languages_screener_id_language_id_pk" PRIMARY KEY("screener_id","language_id")
);
--> statement-breakpoint
CREATE TABLE "screener_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"screener_id" integer NOT NULL,
	"outcome" text NOT NULL,
	"consent_message" text,
	"contact_form_message" text,
	"translations" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "screener_messages_outcome_check" CHECK ("screener_messages"."outcome" in ('acceptance', 'notActive', 'notQualified', 'noTrialSites', 'qualified', 'trialSiteSelected', 'completed'))
);
--> statement-breakpoint
CREATE TABLE "screener_surveys" (
	"id" serial PRIMARY KEY NOT NULL,
	"screener_id" integer NOT NULL,
	"o_form_identity" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"display_order" integer DEFAULT 0 NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "screeners" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description" text,
	"sponsor_id" integer NOT NULL,
	"user_id" integer,
	"type" text DEFAULT 'super-screener' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_locked" boolean DEFAULT false NOT NULL,
	"is_test" boolean DEFAULT false NOT NULL,
	"is_interest_visible" boolean DEFAULT false NOT NULL,
	"translations" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"styles" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"cloned_from_id" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "survey_options" (
	"id" serial PRIMARY KEY NOT NULL,
	"question_id" integer NOT NULL,
	"label" text NOT NULL,
	"value" text NOT NULL,
	"is_disqualified" boolean DEFAULT false NOT NULL,
	"transition_to" text,
	"transition_target" integer,
	"translations" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"display_order" integer DEFAULT 0 NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	CONSTRAINT "survey_options_transition_check" CHECK ("survey_options"."transition_to" is null or "survey_options"."transition_to" in ('end', 'page'))
);
--> statement-breakpoint
CREATE TABLE "survey_pages" (
	"id" serial PRIMARY KEY NOT NULL,
	"survey_id" integer NOT NULL,
	"title" text NOT NULL,
	"display_order" integer DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_deleted" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "survey_question_tags" (
	"question_id" integer NOT NULL,
	"tag_id" integer NOT NULL,
	CONSTRAINT "survey_question_tags_question_id_tag_id_pk" PRIMARY KEY("question_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "survey_questions" (
	"id" serial PRIMARY KEY NOT NULL,
	"page_id" integer NOT NULL,
	"type" text DEFAULT 'placeholder' NOT NULL,
	"title" text DEFAULT 'Placeholder' NOT NULL,
	"helper_text" text,
	"question_category_id" integer,
	"translations" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"display_order" integer DEFAULT 0 NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "surveys" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"global_id" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"engagement_id" integer,
	"screener_id" integer,
	"page_counter" integer DEFAULT 0 NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "surveys_global_id_unique" UNIQUE("global_id")
);
--> statement-breakpoint
ALTER TABLE "contact_field_screeners" ADD CONSTRAINT "contact_field_screeners_screener_id_screeners_id_fk" FOREIGN KEY ("screener_id") REFERENCES "public"."screeners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_field_screeners" ADD CONSTRAINT "contact_field_screeners_contact_field_id_contact_fields_id_fk" FOREIGN KEY ("contact_field_id") REFERENCES "public"."contact_fields"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engagement_options" ADD CONSTRAINT "engagement_options_engagement_id_engagements_id_fk" FOREIGN KEY ("engagement_id") REFERENCES "public"."engagements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engagement_options" ADD CONSTRAINT "engagement_options_option_id_survey_options_id_fk" FOREIGN KEY ("option_id") REFERENCES "public"."survey_options"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engagement_screeners" ADD CONSTRAINT "engagement_screeners_screener_id_screeners_id_fk" FOREIGN KEY ("screener_id") REFERENCES "public"."screeners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "engagement_screeners" ADD CONSTRAINT "engagement_screeners_engagement_id_engagements_id_fk" FOREIGN KEY ("engagement_id") REFERENCES "public"."engagements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_channel_surveys" ADD CONSTRAINT "media_channel_surveys_media_channel_id_media_channels_id_fk" FOREIGN KEY ("media_channel_id") REFERENCES "public"."media_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_channels" ADD CONSTRAINT "media_channels_screener_id_screeners_id_fk" FOREIGN KEY ("screener_id") REFERENCES "public"."screeners"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screener_languages" ADD CONSTRAINT "screener_languages_screener_id_screeners_id_fk" FOREIGN KEY ("screener_id") REFERENCES "public"."screeners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screener_languages" ADD CONSTRAINT "screener_languages_language_id_languages_id_fk" FOREIGN KEY ("language_id") REFERENCES "public"."languages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screener_messages" ADD CONSTRAINT "screener_messages_screener_id_screeners_id_fk" FOREIGN KEY ("screener_id") REFERENCES "public"."screeners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screener_surveys" ADD CONSTRAINT "screener_surveys_screener_id_screeners_id_fk" FOREIGN KEY ("screener_id") REFERENCES "public"."screeners"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screeners" ADD CONSTRAINT "screeners_sponsor_id_sponsors_id_fk" FOREIGN KEY ("sponsor_id") REFERENCES "public"."sponsors"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screeners" ADD CONSTRAINT "screeners_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "screeners" ADD CONSTRAINT "screeners_cloned_from_id_screeners_id_fk" FOREIGN KEY ("cloned_from_id") REFERENCES "public"."screeners"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_options" ADD CONSTRAINT "survey_options_question_id_survey_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."survey_questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_options" ADD CONSTRAINT "survey_options_transition_target_survey_pages_id_fk" FOREIGN KEY ("transition_target") REFERENCES "public"."survey_pages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_pages" ADD CONSTRAINT "survey_pages_survey_id_surveys_id_fk" FOREIGN KEY ("survey_id") REFERENCES "public"."surveys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_question_tags" ADD CONSTRAINT "survey_question_tags_question_id_survey_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."survey_questions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_question_tags" ADD CONSTRAINT "survey_question_tags_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_questions" ADD CONSTRAINT "survey_questions_page_id_survey_pages_id_fk" FOREIGN KEY ("page_id") REFERENCES "public"."survey_pages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_questions" ADD CONSTRAINT "survey_questions_question_category_id_question_categories_id_fk" FOREIGN KEY ("question_category_id") REFERENCES "public"."question_categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "surveys" ADD CONSTRAINT "surveys_engagement_id_engagements_id_fk" FOREIGN KEY ("engagement_id") REFERENCES "public"."engagements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "surveys" ADD CONSTRAINT "surveys_screener_id_screeners_id_fk" FOREIGN KEY ("screener_id") REFERENCES "public"."screeners"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contact_field_screeners_pair_idx" ON "contact_field_screeners" USING btree ("screener_id","contact_field_id");--> statement-breakpoint
CREATE UNIQUE INDEX "engagement_options_pair_idx" ON "engagement_options" USING btree ("engagement_id","option_id");--> statement-breakpoint
CREATE INDEX "engagement_screeners_engagement_idx" ON "engagement_screeners" USING btree ("engagement_id");--> statement-breakpoint
CREATE UNIQUE INDEX "media_channel_surveys_pair_idx" ON "media_channel_surveys" USING btree ("media_channel_id","o_form_identity");--> statement-breakpoint
CREATE INDEX "media_channel_surveys_identity_idx" ON "media_channel_surveys" USING btree ("o_form_identity");--> statement-breakpoint
CREATE INDEX "media_channels_title_idx" ON "media_channels" USING btree ("title");--> statement-breakpoint
CREATE INDEX "media_channels_screener_idx" ON "media_channels" USING btree ("screener_id");--> statement-breakpoint
CREATE UNIQUE INDEX "screener_messages_outcome_idx" ON "screener_messages" USING btree ("screener_id","outcome");--> statement-breakpoint
CREATE UNIQUE INDEX "screener_surveys_pair_idx" ON "screener_surveys" USING btree ("screener_id","o_form_identity");--> statement-breakpoint
CREATE INDEX "screeners_default_sort_idx" ON "screeners" USING btree ("is_active","title");--> statement-breakpoint
CREATE INDEX "screeners_sponsor_idx" ON "screeners" USING btree ("sponsor_id");--> statement-breakpoint
CREATE INDEX "survey_options_question_idx" ON "survey_options" USING btree ("question_id","display_order");--> statement-breakpoint
CREATE INDEX "survey_pages_survey_idx" ON "survey_pages" USING btree ("survey_id","display_order");--> statement-breakpoint
CREATE INDEX "survey_questions_page_idx" ON "survey_questions" USING btree ("page_id","display_order");--> statement-breakpoint
CREATE INDEX "surveys_engagement_idx" ON "surveys" USING btree ("engagement_id");--> statement-breakpoint
CREATE INDEX "surveys_screener_idx" ON "surveys" USING btree ("screener_id");