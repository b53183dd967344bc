ALTER TABLE "o_form_submissions" ADD COLUMN "utm" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
-- Runs stored so far keep their campaign parameters where they need no decoding (letters,
-- digits and . _ ~ -); then every page address loses its query, fragment and credentials.
UPDATE "o_form_submissions" SET "utm" = jsonb_strip_nulls(jsonb_build_object(
  'utm_source', substring("media_channel_url" from '[?&]utm_source=([A-Za-z0-9._~-]{1,200})(?:[&#]|$)'),
  'utm_medium', substring("media_channel_url" from '[?&]utm_medium=([A-Za-z0-9._~-]{1,200})(?:[&#]|$)'),
  'utm_campaign', substring("media_channel_url" from '[?&]utm_campaign=([A-Za-z0-9._~-]{1,200})(?:[&#]|$)'),
  'utm_term', substring("media_channel_url" from '[?&]utm_term=([A-Za-z0-9._~-]{1,200})(?:[&#]|$)'),
  'utm_content', substring("media_channel_url" from '[?&]utm_content=([A-Za-z0-9._~-]{1,200})(?:[&#]|$)')
))
WHERE "media_channel_url" ~ '[?&]utm_';--> statement-breakpoint
UPDATE "o_form_submissions"
SET "media_channel_url" = regexp_replace(regexp_replace("media_channel_url", '[?#].*$', ''), '^([A-Za-z][A-Za-z0-9+.-]*://)[^/@]*@', '\1')
WHERE "media_channel_url" ~ '[?#@]';
