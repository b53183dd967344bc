CREATE TABLE "funnel_day_counts" (
	"day" date NOT NULL,
	"o_form_id" integer NOT NULL,
	"media_channel_id" integer,
	"started" integer DEFAULT 0 NOT NULL,
	"completed" integer DEFAULT 0 NOT NULL,
	"qualified" integer DEFAULT 0 NOT NULL,
	"site_selected" integer DEFAULT 0 NOT NULL,
	"contacted" integer DEFAULT 0 NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"screened" integer DEFAULT 0 NOT NULL,
	"randomized" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "funnel_dirty" (
	"day" date NOT NULL,
	"o_form_id" integer NOT NULL,
	CONSTRAINT "funnel_dirty_day_o_form_id_pk" PRIMARY KEY("day","o_form_id")
);
--> statement-breakpoint
ALTER TABLE "funnel_day_counts" ADD CONSTRAINT "funnel_day_counts_o_form_id_o_forms_id_fk" FOREIGN KEY ("o_form_id") REFERENCES "public"."o_forms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "funnel_day_counts_form_day_idx" ON "funnel_day_counts" USING btree ("o_form_id","day");--> statement-breakpoint
CREATE INDEX "funnel_day_counts_day_idx" ON "funnel_day_counts" USING btree ("day");--> statement-breakpoint
-- What may change a submission's funnel stages marks its (day, survey version) bucket of
-- funnel_day_counts stale as it is written, whichever code path writes it; the next funnel read
-- recomputes the marked buckets (server/funnel/rollup.ts). A mark is one insert that does
-- nothing when the bucket is already marked.
CREATE OR REPLACE FUNCTION funnel_mark_submission(submission integer) RETURNS void AS $$
BEGIN
  IF submission IS NULL THEN
    RETURN;
  END IF;
  INSERT INTO funnel_dirty (day, o_form_id)
  SELECT (s.created AT TIME ZONE 'UTC')::date, s.o_form_id FROM o_form_submissions s WHERE s.id = submission
  ON CONFLICT DO NOTHING;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION funnel_submission_changed() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO funnel_dirty (day, o_form_id) VALUES ((OLD.created AT TIME ZONE 'UTC')::date, OLD.o_form_id) ON CONFLICT DO NOTHING;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO funnel_dirty (day, o_form_id) VALUES ((NEW.created AT TIME ZONE 'UTC')::date, NEW.o_form_id) ON CONFLICT DO NOTHING;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER funnel_submission_written AFTER INSERT OR DELETE ON o_form_submissions
  FOR EACH ROW EXECUTE FUNCTION funnel_submission_changed();
--> statement-breakpoint
CREATE TRIGGER funnel_submission_updated AFTER UPDATE OF o_form_id, media_channel_id, status, outcome, is_qualified, started_at, finished_at, created ON o_form_submissions
  FOR EACH ROW WHEN (
    OLD.o_form_id IS DISTINCT FROM NEW.o_form_id OR OLD.media_channel_id IS DISTINCT FROM NEW.media_channel_id
    OR OLD.status IS DISTINCT FROM NEW.status OR OLD.outcome IS DISTINCT FROM NEW.outcome
    OR OLD.is_qualified IS DISTINCT FROM NEW.is_qualified OR OLD.started_at IS DISTINCT FROM NEW.started_at
    OR OLD.finished_at IS DISTINCT FROM NEW.finished_at OR OLD.created IS DISTINCT FROM NEW.created
  ) EXECUTE FUNCTION funnel_submission_changed();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION funnel_contact_changed() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM funnel_mark_submission(OLD.submission_id);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM funnel_mark_submission(NEW.submission_id);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER funnel_contact_written AFTER INSERT OR DELETE OR UPDATE OF submission_id, engagement_site_location_id, duplicate_of ON contacts
  FOR EACH ROW EXECUTE FUNCTION funnel_contact_changed();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION funnel_contact_fact_changed() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM funnel_mark_submission((SELECT c.submission_id FROM contacts c WHERE c.id = OLD.contact_id));
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM funnel_mark_submission((SELECT c.submission_id FROM contacts c WHERE c.id = NEW.contact_id));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER funnel_delivery_written AFTER INSERT OR DELETE OR UPDATE OF status, contact_id ON rms_deliveries
  FOR EACH ROW EXECUTE FUNCTION funnel_contact_fact_changed();
--> statement-breakpoint
CREATE TRIGGER funnel_referral_written AFTER INSERT OR DELETE OR UPDATE OF is_screened, is_randomized, contact_id ON referrals
  FOR EACH ROW EXECUTE FUNCTION funnel_contact_fact_changed();
--> statement-breakpoint
-- Every bucket that has submissions is computed on the first read after this migration.
INSERT INTO funnel_dirty (day, o_form_id)
SELECT DISTINCT (created AT TIME ZONE 'UTC')::date, o_form_id FROM o_form_submissions
ON CONFLICT DO NOTHING;
