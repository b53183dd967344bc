CREATE TABLE "funnel_views" (
	"dimensions" text NOT NULL,
	"shard" smallint NOT NULL,
	"day" date NOT NULL,
	"sponsor_id" integer,
	"engagement_id" integer,
	"screener_id" integer,
	"media_channel_id" integer,
	"o_form_id" integer,
	"o_form_identity" text,
	"language" text NOT NULL,
	"utm_source" text,
	"utm_campaign" text,
	"views" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "funnel_views_dimensions_shard_pk" PRIMARY KEY("dimensions","shard")
);
--> statement-breakpoint
ALTER TABLE "o_form_submissions" ADD COLUMN "started_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "funnel_views_engagement_day_idx" ON "funnel_views" USING btree ("engagement_id","day");--> statement-breakpoint
CREATE INDEX "funnel_views_day_idx" ON "funnel_views" USING btree ("day");--> statement-breakpoint
CREATE INDEX "o_form_submissions_form_created_idx" ON "o_form_submissions" USING btree ("o_form_id","created");--> statement-breakpoint
CREATE INDEX "o_form_submissions_created_idx" ON "o_form_submissions" USING btree ("created");--> statement-breakpoint
UPDATE "o_form_submissions" s SET "started_at" = coalesce(
	(SELECT min(e."answered_at") FROM "o_form_container_entries" e WHERE e."submission_id" = s."id"),
	s."finished_at", s."completed_at")
WHERE s."started_at" IS NULL;
