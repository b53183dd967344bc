CREATE TABLE "engagement_message_settings" (
	"engagement_id" integer NOT NULL,
	"kind" text NOT NULL,
	"is_enabled" boolean DEFAULT true NOT NULL,
	"delay_minutes" integer DEFAULT 0 NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "engagement_message_settings_engagement_id_kind_pk" PRIMARY KEY("engagement_id","kind"),
	CONSTRAINT "engagement_message_settings_delay_check" CHECK ("engagement_message_settings"."delay_minutes" between 0 and 43200)
);
--> statement-breakpoint
CREATE TABLE "message_opt_outs" (
	"to_match" text PRIMARY KEY NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "message_templates" (
	"kind" text NOT NULL,
	"language" text NOT NULL,
	"subject" text NOT NULL,
	"html" text NOT NULL,
	"text" text NOT NULL,
	"modified_by" integer,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_templates_kind_language_pk" PRIMARY KEY("kind","language")
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"engagement_id" integer,
	"referral_id" integer,
	"audience" text NOT NULL,
	"recipient_user_id" integer,
	"recipient_label" text NOT NULL,
	"language" text DEFAULT 'en' NOT NULL,
	"to_ciphertext" text NOT NULL,
	"to_match" text,
	"subject" text NOT NULL,
	"body_ciphertext" text,
	"message_id" text NOT NULL,
	"unsubscribe_token" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"lease_id" uuid,
	"last_attempt_at" timestamp with time zone,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"purged_at" timestamp with time zone,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "messages_status_check" CHECK ("messages"."status" in ('pending', 'waiting', 'retrying', 'sent', 'failed', 'cancelled')),
	CONSTRAINT "messages_audience_check" CHECK ("messages"."audience" in ('staff', 'participant'))
);
--> statement-breakpoint
ALTER TABLE "engagement_message_settings" ADD CONSTRAINT "engagement_message_settings_engagement_id_engagements_id_fk" FOREIGN KEY ("engagement_id") REFERENCES "public"."engagements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_templates" ADD CONSTRAINT "message_templates_modified_by_users_id_fk" FOREIGN KEY ("modified_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_engagement_id_engagements_id_fk" FOREIGN KEY ("engagement_id") REFERENCES "public"."engagements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_referral_id_referrals_id_fk" FOREIGN KEY ("referral_id") REFERENCES "public"."referrals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_recipient_user_id_users_id_fk" FOREIGN KEY ("recipient_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "messages_message_id_idx" ON "messages" USING btree ("message_id");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_unsubscribe_token_idx" ON "messages" USING btree ("unsubscribe_token") WHERE "messages"."unsubscribe_token" is not null;--> statement-breakpoint
CREATE INDEX "messages_due_idx" ON "messages" USING btree ("next_attempt_at") WHERE "messages"."status" in ('pending', 'waiting', 'retrying');--> statement-breakpoint
CREATE INDEX "messages_referral_idx" ON "messages" USING btree ("referral_id");--> statement-breakpoint
CREATE INDEX "messages_created_idx" ON "messages" USING btree ("created","id");--> statement-breakpoint
CREATE INDEX "messages_to_match_idx" ON "messages" USING btree ("to_match") WHERE "messages"."to_match" is not null;