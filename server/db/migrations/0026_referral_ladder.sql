CREATE TABLE "referral_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"referral_id" integer NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"actor_user_id" integer,
	"actor_name" text NOT NULL,
	"from_status" text,
	"to_status" text,
	"reason_id" integer,
	"channel" text,
	"result" text,
	"note_ciphertext" text
);
--> statement-breakpoint
CREATE TABLE "referral_reasons" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"status" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_site_locations" (
	"user_id" integer NOT NULL,
	"site_location_id" integer NOT NULL,
	CONSTRAINT "user_site_locations_user_id_site_location_id_pk" PRIMARY KEY("user_id","site_location_id")
);
--> statement-breakpoint
ALTER TABLE "engagements" ADD COLUMN "first_contact_hours" integer DEFAULT 48 NOT NULL;--> statement-breakpoint
ALTER TABLE "engagements" ADD COLUMN "stale_days" integer DEFAULT 7 NOT NULL;--> statement-breakpoint
ALTER TABLE "referrals" ADD COLUMN "status" text DEFAULT 'new' NOT NULL;--> statement-breakpoint
ALTER TABLE "referrals" ADD COLUMN "reason_id" integer;--> statement-breakpoint
ALTER TABLE "referrals" ADD COLUMN "reason_note_ciphertext" text;--> statement-breakpoint
ALTER TABLE "referrals" ADD COLUMN "status_changed" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "referrals" ADD COLUMN "first_contact_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "referrals" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "referrals" ADD COLUMN "last_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "referrals" ADD COLUMN "next_attempt_due" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "referral_events" ADD CONSTRAINT "referral_events_referral_id_referrals_id_fk" FOREIGN KEY ("referral_id") REFERENCES "public"."referrals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_events" ADD CONSTRAINT "referral_events_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_events" ADD CONSTRAINT "referral_events_reason_id_referral_reasons_id_fk" FOREIGN KEY ("reason_id") REFERENCES "public"."referral_reasons"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_site_locations" ADD CONSTRAINT "user_site_locations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_site_locations" ADD CONSTRAINT "user_site_locations_site_location_id_site_locations_id_fk" FOREIGN KEY ("site_location_id") REFERENCES "public"."site_locations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "referral_events_referral_idx" ON "referral_events" USING btree ("referral_id","occurred_at");--> statement-breakpoint
CREATE UNIQUE INDEX "referral_reasons_name_idx" ON "referral_reasons" USING btree ("status",lower("name"));--> statement-breakpoint
CREATE INDEX "user_site_locations_site_idx" ON "user_site_locations" USING btree ("site_location_id");--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_reason_id_referral_reasons_id_fk" FOREIGN KEY ("reason_id") REFERENCES "public"."referral_reasons"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "referrals_site_status_idx" ON "referrals" USING btree ("engagement_site_location_id","status");--> statement-breakpoint
ALTER TABLE "referrals" ADD CONSTRAINT "referrals_status_check" CHECK ("referrals"."status" in ('new', 'attempting-contact', 'contacted', 'scheduled', 'in-screening', 'screen-failed', 'eligible', 'enrolled', 'withdrawn', 'not-reachable'));--> statement-breakpoint
-- Referrals made before the ladder stand where their record system's callbacks left them.
UPDATE "referrals" SET "status" = CASE WHEN "is_randomized" THEN 'enrolled' ELSE 'in-screening' END WHERE "is_screened" OR "is_randomized";--> statement-breakpoint
INSERT INTO "referral_reasons" ("name", "status") VALUES
	('Did not meet inclusion criteria', 'screen-failed'),
	('Met an exclusion criterion', 'screen-failed'),
	('Lab values out of range', 'screen-failed'),
	('Lost interest', 'withdrawn'),
	('Travel distance to the site', 'withdrawn'),
	('Time commitment', 'withdrawn'),
	('No answer after repeated attempts', 'not-reachable'),
	('Wrong contact details', 'not-reachable');
