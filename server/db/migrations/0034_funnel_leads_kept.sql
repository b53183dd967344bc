ALTER TABLE "funnel_day_counts" ADD COLUMN "leads_kept" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "funnel_day_counts" ADD COLUMN "leads_not_qualified" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "funnel_day_counts" ADD COLUMN "leads_no_trial_sites" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "funnel_day_counts" ADD COLUMN "leads_not_active" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The funnel counts leads kept: a lead written, erased, purged or no longer a duplicate (its
-- first lead erased) marks its submission's bucket, as a contact does.
CREATE TRIGGER funnel_lead_written AFTER INSERT OR DELETE OR UPDATE OF submission_id, kind, duplicate_of ON leads
  FOR EACH ROW EXECUTE FUNCTION funnel_contact_changed();
--> statement-breakpoint
-- Every bucket with a lead is counted again for the new columns on the next read.
INSERT INTO funnel_dirty (day, o_form_id)
SELECT DISTINCT (s.created AT TIME ZONE 'UTC')::date, s.o_form_id
FROM leads l JOIN o_form_submissions s ON s.id = l.submission_id
ON CONFLICT DO NOTHING;
