CREATE TABLE "funnel_recount" (
	"only" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"first_day" date NOT NULL,
	"last_day" date NOT NULL,
	CONSTRAINT "funnel_recount_one_row" CHECK ("funnel_recount"."only")
);
--> statement-breakpoint
-- An installation whose rollup was never counted: migration 0020 marked every bucket for the first
-- funnel read to count, which at a million submissions took minutes inside that request. Its days
-- go to the recount job instead (server/funnel/recount.ts), and their marks with them; an
-- installation whose rollup is counted keeps its few marks for the next read.
INSERT INTO "funnel_recount" ("first_day", "last_day")
SELECT (min("created") AT TIME ZONE 'UTC')::date, (max("created") AT TIME ZONE 'UTC')::date FROM "o_form_submissions"
WHERE NOT EXISTS (SELECT 1 FROM "funnel_day_counts")
HAVING min("created") IS NOT NULL;
--> statement-breakpoint
DELETE FROM "funnel_dirty" d USING "funnel_recount" r WHERE d."day" BETWEEN r."first_day" AND r."last_day";
