ALTER TABLE "o_form_container_entries" ADD COLUMN "answered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "o_form_submissions" ADD COLUMN "finished_at" timestamp with time zone;--> statement-breakpoint
-- Entries made before the column: a page with stored answers (on it or its child entries) was answered.
UPDATE "o_form_container_entries" e SET "answered_at" = e."created"
WHERE e."parent_id" IS NULL AND EXISTS (
  SELECT 1 FROM "o_form_field_entries" f JOIN "o_form_container_entries" x ON x."id" = f."container_entry_id"
  WHERE x."id" = e."id" OR x."parent_id" = e."id"
);--> statement-breakpoint
-- Runs that reached an outcome before the column: their answers are final from then on.
UPDATE "o_form_submissions" SET "finished_at" = "modified" WHERE "outcome" IN ('qualified', 'notQualified', 'noTrialSites', 'trialSiteSelected', 'completed');
