-- Names sort as people read them: ICU's root order with numbers compared by value ("Site 2"
-- before "Site 10"). 'und@colNumeric=yes' is the spelling both PGlite's ICU and PostgreSQL's
-- accept (PGlite ignores the BCP 47 'und-u-kn-true'). A PostgreSQL built without ICU gets byte
-- order under the same name, so the product still runs there, sorting as before.
DO $$
BEGIN
  CREATE COLLATION IF NOT EXISTS natural_sort (provider = icu, locale = 'und@colNumeric=yes');
EXCEPTION WHEN feature_not_supported OR invalid_parameter_value OR undefined_object THEN
  CREATE COLLATION IF NOT EXISTS natural_sort FROM "C";
END
$$;--> statement-breakpoint
DROP INDEX "contact_fields_label_idx";--> statement-breakpoint
DROP INDEX "engagements_default_sort_idx";--> statement-breakpoint
DROP INDEX "media_channels_title_idx";--> statement-breakpoint
DROP INDEX "rms_audits_provider_name_idx";--> statement-breakpoint
DROP INDEX "screeners_default_sort_idx";--> statement-breakpoint
DROP INDEX "screeners_title_idx";--> statement-breakpoint
DROP INDEX "site_locations_default_sort_idx";--> statement-breakpoint
DROP INDEX "sponsors_active_name_idx";--> statement-breakpoint
DROP INDEX "sponsors_name_idx";--> statement-breakpoint
CREATE INDEX "engagements_name_idx" ON "engagements" USING btree ("name" collate natural_sort,"id");--> statement-breakpoint
CREATE INDEX "contact_fields_label_idx" ON "contact_fields" USING btree ("label" collate natural_sort);--> statement-breakpoint
CREATE INDEX "engagements_default_sort_idx" ON "engagements" USING btree ("is_active" DESC NULLS FIRST,"end_date","name" collate natural_sort,"id");--> statement-breakpoint
CREATE INDEX "media_channels_title_idx" ON "media_channels" USING btree ("title" collate natural_sort,"id");--> statement-breakpoint
CREATE INDEX "rms_audits_provider_name_idx" ON "rms_audits" USING btree ("rms_provider_name" collate natural_sort,"id");--> statement-breakpoint
CREATE INDEX "screeners_default_sort_idx" ON "screeners" USING btree ("is_active" DESC NULLS FIRST,"title" collate natural_sort,"id");--> statement-breakpoint
CREATE INDEX "screeners_title_idx" ON "screeners" USING btree ("title" collate natural_sort,"id");--> statement-breakpoint
CREATE INDEX "site_locations_default_sort_idx" ON "site_locations" USING btree ("is_active" DESC NULLS FIRST,"name" collate natural_sort,"id");--> statement-breakpoint
CREATE INDEX "sponsors_active_name_idx" ON "sponsors" USING btree ("is_active" DESC NULLS FIRST,"name" collate natural_sort,"id");--> statement-breakpoint
CREATE INDEX "sponsors_name_idx" ON "sponsors" USING btree ("name" collate natural_sort);