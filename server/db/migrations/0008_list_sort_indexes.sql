DROP INDEX "engagements_default_sort_idx";--> statement-breakpoint
DROP INDEX "media_channels_title_idx";--> statement-breakpoint
DROP INDEX "screeners_default_sort_idx";--> statement-breakpoint
DROP INDEX "site_locations_default_sort_idx";--> statement-breakpoint
DROP INDEX "sponsors_active_name_idx";--> statement-breakpoint
CREATE INDEX "rms_audits_provider_name_idx" ON "rms_audits" USING btree ("rms_provider_name","id");--> statement-breakpoint
CREATE INDEX "screeners_title_idx" ON "screeners" USING btree ("title","id");--> statement-breakpoint
CREATE INDEX "site_locations_city_idx" ON "site_locations" USING btree ("city","id");--> statement-breakpoint
CREATE INDEX "engagements_default_sort_idx" ON "engagements" USING btree ("is_active" DESC NULLS FIRST,"end_date","name","id");--> statement-breakpoint
CREATE INDEX "media_channels_title_idx" ON "media_channels" USING btree ("title","id");--> statement-breakpoint
CREATE INDEX "screeners_default_sort_idx" ON "screeners" USING btree ("is_active" DESC NULLS FIRST,"title","id");--> statement-breakpoint
CREATE INDEX "site_locations_default_sort_idx" ON "site_locations" USING btree ("is_active" DESC NULLS FIRST,"name","id");--> statement-breakpoint
CREATE INDEX "sponsors_active_name_idx" ON "sponsors" USING btree ("is_active" DESC NULLS FIRST,"name","id");