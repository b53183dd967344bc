CREATE TABLE "media_channel_figures" (
	"media_channel_id" integer NOT NULL,
	"shard" smallint NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"share" integer DEFAULT 0 NOT NULL,
	"submissions_started" integer DEFAULT 0 NOT NULL,
	"submissions_completed" integer DEFAULT 0 NOT NULL,
	"submissions_qualified" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "media_channel_figures_media_channel_id_shard_pk" PRIMARY KEY("media_channel_id","shard")
);
--> statement-breakpoint
ALTER TABLE "media_channel_figures" ADD CONSTRAINT "media_channel_figures_media_channel_id_media_channels_id_fk" FOREIGN KEY ("media_channel_id") REFERENCES "public"."media_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Figures counted so far move to shard 0 of their channel before the columns go.
INSERT INTO "media_channel_figures" ("media_channel_id", "shard", "views", "share", "submissions_started", "submissions_completed", "submissions_qualified")
SELECT "id", 0, "views", "share", "submissions_started", "submissions_completed", "submissions_qualified" FROM "media_channels";--> statement-breakpoint
ALTER TABLE "media_channels" DROP COLUMN "views";--> statement-breakpoint
ALTER TABLE "media_channels" DROP COLUMN "share";--> statement-breakpoint
ALTER TABLE "media_channels" DROP COLUMN "submissions_started";--> statement-breakpoint
ALTER TABLE "media_channels" DROP COLUMN "submissions_completed";--> statement-breakpoint
ALTER TABLE "media_channels" DROP COLUMN "submissions_qualified";