-- A channel's submissionsStarted and possibleRetakes now count a run at its first saved page (started_at),
-- as the funnel's `started` does; they were counted at the run's creation. Counted again from the runs.
UPDATE "media_channel_figures" SET "submissions_started" = 0, "possible_retakes" = 0;--> statement-breakpoint
INSERT INTO "media_channel_figures" ("media_channel_id", "shard", "submissions_started", "possible_retakes")
SELECT "media_channel_id", 0, count(*)::int, (count(*) FILTER (WHERE "possible_retake"))::int
FROM "o_form_submissions"
WHERE "media_channel_id" IS NOT NULL AND "started_at" IS NOT NULL
GROUP BY "media_channel_id"
ON CONFLICT ("media_channel_id", "shard") DO UPDATE SET "submissions_started" = excluded."submissions_started", "possible_retakes" = excluded."possible_retakes";
