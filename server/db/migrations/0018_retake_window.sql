ALTER TABLE "media_channel_figures" ADD COLUMN "possible_retakes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "media_channels" ADD COLUMN "retake_window_days" integer DEFAULT 30 NOT NULL;--> statement-breakpoint
ALTER TABLE "o_form_submissions" ADD COLUMN "client_match" text;--> statement-breakpoint
ALTER TABLE "o_form_submissions" ADD COLUMN "possible_retake" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "o_form_submissions_client_match_idx" ON "o_form_submissions" USING btree ("media_channel_id","client_match","finished_at") WHERE "o_form_submissions"."client_match" is not null;--> statement-breakpoint
ALTER TABLE "media_channels" ADD CONSTRAINT "media_channels_retake_window_check" CHECK ("media_channels"."retake_window_days" between 0 and 3650);