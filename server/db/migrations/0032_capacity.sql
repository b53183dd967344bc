DROP INDEX "referrals_engagement_idx";--> statement-breakpoint
ALTER TABLE "engagement_site_locations" ADD COLUMN "weekly_cap" integer;--> statement-breakpoint
ALTER TABLE "engagement_site_locations" ADD COLUMN "total_cap" integer;--> statement-breakpoint
ALTER TABLE "engagement_site_locations" ADD COLUMN "is_paused" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "engagements" ADD COLUMN "target_measure" text DEFAULT 'referrals' NOT NULL;--> statement-breakpoint
CREATE INDEX "referrals_engagement_idx" ON "referrals" USING btree ("engagement_id","created");--> statement-breakpoint
ALTER TABLE "engagement_site_locations" ADD CONSTRAINT "engagement_site_locations_caps_check" CHECK (("engagement_site_locations"."weekly_cap" is null or "engagement_site_locations"."weekly_cap" >= 0) and ("engagement_site_locations"."total_cap" is null or "engagement_site_locations"."total_cap" >= 0));--> statement-breakpoint
ALTER TABLE "engagements" ADD CONSTRAINT "engagements_target_measure_check" CHECK ("engagements"."target_measure" in ('referrals', 'randomized'));