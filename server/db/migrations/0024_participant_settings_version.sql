CREATE TABLE "participant_settings_version" (
	"only" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "participant_settings_version_one_row" CHECK ("participant_settings_version"."only")
);
--> statement-breakpoint
INSERT INTO "participant_settings_version" ("only", "version") VALUES (true, 0);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION participant_settings_changed() RETURNS trigger AS $$
BEGIN
  INSERT INTO participant_settings_version ("only", version) VALUES (true, 1)
    ON CONFLICT ("only") DO UPDATE SET version = participant_settings_version.version + 1;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;
--> statement-breakpoint
CREATE TRIGGER participant_settings_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "o_forms" FOR EACH STATEMENT EXECUTE FUNCTION participant_settings_changed();
--> statement-breakpoint
CREATE TRIGGER participant_settings_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "o_form_languages" FOR EACH STATEMENT EXECUTE FUNCTION participant_settings_changed();
--> statement-breakpoint
CREATE TRIGGER participant_settings_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "languages" FOR EACH STATEMENT EXECUTE FUNCTION participant_settings_changed();
--> statement-breakpoint
CREATE TRIGGER participant_settings_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "media_channels" FOR EACH STATEMENT EXECUTE FUNCTION participant_settings_changed();
--> statement-breakpoint
CREATE TRIGGER participant_settings_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "media_channel_surveys" FOR EACH STATEMENT EXECUTE FUNCTION participant_settings_changed();
--> statement-breakpoint
CREATE TRIGGER participant_settings_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "screeners" FOR EACH STATEMENT EXECUTE FUNCTION participant_settings_changed();
--> statement-breakpoint
CREATE TRIGGER participant_settings_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "screener_surveys" FOR EACH STATEMENT EXECUTE FUNCTION participant_settings_changed();
