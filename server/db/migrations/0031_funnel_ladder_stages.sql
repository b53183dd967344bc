ALTER TABLE "funnel_day_counts" RENAME COLUMN "contacted" TO "contact_left";--> statement-breakpoint
ALTER TABLE "funnel_day_counts" ADD COLUMN "reached" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "funnel_day_counts" ADD COLUMN "screen_failed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The funnel's reached and screen-failed stages read a referral's first contact and status too:
-- a change of either marks the referral's bucket.
DROP TRIGGER IF EXISTS funnel_referral_written ON referrals;--> statement-breakpoint
CREATE TRIGGER funnel_referral_written AFTER INSERT OR DELETE OR UPDATE OF is_screened, is_randomized, contact_id, status, first_contact_at ON referrals
  FOR EACH ROW EXECUTE FUNCTION funnel_contact_fact_changed();
--> statement-breakpoint
-- Every bucket with a referral is counted again for the new stages on the next read.
INSERT INTO funnel_dirty (day, o_form_id)
SELECT DISTINCT (s.created AT TIME ZONE 'UTC')::date, s.o_form_id
FROM referrals r JOIN contacts c ON c.id = r.contact_id JOIN o_form_submissions s ON s.id = c.submission_id
ON CONFLICT DO NOTHING;
