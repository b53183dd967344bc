CREATE TABLE "o_form_containers" (
	"id" serial PRIMARY KEY NOT NULL,
	"identity" text NOT NULL,
	"o_form_id" integer NOT NULL,
	"title" text NOT NULL,
	"display_order" integer DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"container_type" text DEFAULT 'root_container' NOT NULL,
	"parent_id" integer,
	CONSTRAINT "o_form_containers_type_check" CHECK ("o_form_containers"."container_type" in ('root_container', 'child_container'))
);
--> statement-breakpoint
CREATE TABLE "o_form_field_tags" (
	"field_id" integer NOT NULL,
	"tag_id" integer NOT NULL,
	CONSTRAINT "o_form_field_tags_field_id_tag_id_pk" PRIMARY KEY("field_id","tag_id")
);
--> statement-breakpoint
CREATE TABLE "o_form_fields" (
	"id" serial PRIMARY KEY NOT NULL,
	"identity" text NOT NULL,
	"container_id" integer NOT NULL,
	"title" text DEFAULT 'Placeholder' NOT NULL,
	"type" text DEFAULT 'placeholder' NOT NULL,
	"category_id" integer,
	"is_active" boolean DEFAULT true NOT NULL,
	"display_order" integer DEFAULT 0 NOT NULL,
	"configuration" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "o_form_languages" (
	"o_form_id" integer NOT NULL,
	"language_id" integer NOT NULL,
	CONSTRAINT "o_form_languages_o_form_id_language_id_pk" PRIMARY KEY("o_form_id","language_id")
);
--> statement-breakpoint
CREATE TABLE "o_form_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"o_form_identity" text NOT NULL,
	"o_form_version_id" integer NOT NULL,
	"message_type" text NOT NULL,
	"language" text DEFAULT 'en' NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "o_form_messages_type_check" CHECK ("o_form_messages"."message_type" in ('completed_contact_form', 'no_trial_sites_consent', 'no_trial_sites_contact_form', 'not_active_consent', 'not_active_contact_form', 'not_qualified_consent', 'not_qualified_contact_form', 'trial_site_selected_consent', 'trial_site_selected_contact_form'))
);
--> statement-breakpoint
CREATE TABLE "o_forms" (
	"id" serial PRIMARY KEY NOT NULL,
	"identity" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"title" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"is_approved" boolean DEFAULT false NOT NULL,
	"approved_at" timestamp with time zone,
	"approved_by" integer,
	"engagement_id" integer NOT NULL,
	"sponsor_id" integer,
	"container_count" integer DEFAULT 0 NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "o_form_containers" ADD CONSTRAINT "o_form_containers_o_form_id_o_forms_id_fk" FOREIGN KEY ("o_form_id") REFERENCES "public"."o_forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "o_form_containers" ADD CONSTRAINT "o_form_containers_parent_id_o_form_containers_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."o_form_containers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "o_form_field_tags" ADD CONSTRAINT "o_form_field_tags_field_id_o_form_fields_id_fk" FOREIGN KEY ("field_id") REFERENCES "public"."o_form_fields"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "o_form_field_tags" ADD CONSTRAINT "o_form_field_tags_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "o_form_fields" ADD CONSTRAINT "o_form_fields_container_id_o_form_containers_id_fk" FOREIGN KEY ("container_id") REFERENCES "public"."o_form_containers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "o_form_fields" ADD CONSTRAINT "o_form_fields_category_id_question_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."question_categories"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "o_form_languages" ADD CONSTRAINT "o_form_languages_o_form_id_o_forms_id_fk" FOREIGN KEY ("o_form_id") REFERENCES "public"."o_forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "o_form_languages" ADD CONSTRAINT "o_form_languages_language_id_languages_id_fk" FOREIGN KEY ("language_id") REFERENCES "public"."languages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "o_form_messages" ADD CONSTRAINT "o_form_messages_o_form_version_id_o_forms_id_fk" FOREIGN KEY ("o_form_version_id") REFERENCES "public"."o_forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "o_forms" ADD CONSTRAINT "o_forms_approved_by_users_id_fk" FOREIGN KEY ("approved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "o_forms" ADD CONSTRAINT "o_forms_engagement_id_engagements_id_fk" FOREIGN KEY ("engagement_id") REFERENCES "public"."engagements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "o_forms" ADD CONSTRAINT "o_forms_sponsor_id_sponsors_id_fk" FOREIGN KEY ("sponsor_id") REFERENCES "public"."sponsors"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "o_form_containers_identity_idx" ON "o_form_containers" USING btree ("o_form_id","identity");--> statement-breakpoint
CREATE INDEX "o_form_containers_form_idx" ON "o_form_containers" USING btree ("o_form_id","display_order");--> statement-breakpoint
CREATE INDEX "o_form_containers_parent_idx" ON "o_form_containers" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "o_form_fields_container_idx" ON "o_form_fields" USING btree ("container_id","display_order");--> statement-breakpoint
CREATE INDEX "o_form_fields_identity_idx" ON "o_form_fields" USING btree ("identity");--> statement-breakpoint
CREATE UNIQUE INDEX "o_form_messages_version_type_language_idx" ON "o_form_messages" USING btree ("o_form_version_id","message_type","language");--> statement-breakpoint
CREATE INDEX "o_form_messages_identity_idx" ON "o_form_messages" USING btree ("o_form_identity");--> statement-breakpoint
CREATE UNIQUE INDEX "o_forms_identity_version_idx" ON "o_forms" USING btree ("identity","version");--> statement-breakpoint
CREATE UNIQUE INDEX "o_forms_one_approved_idx" ON "o_forms" USING btree ("identity") WHERE "o_forms"."is_approved";--> statement-breakpoint
CREATE INDEX "o_forms_engagement_idx" ON "o_forms" USING btree ("engagement_id");