CREATE TABLE "embed_problems" (
	"media_channel_id" integer NOT NULL,
	"origin" text NOT NULL,
	"cause" text NOT NULL,
	"first_seen" timestamp with time zone NOT NULL,
	"last_seen" timestamp with time zone NOT NULL,
	"count" integer DEFAULT 1 NOT NULL,
	CONSTRAINT "embed_problems_media_channel_id_origin_cause_pk" PRIMARY KEY("media_channel_id","origin","cause")
);
--> statement-breakpoint
ALTER TABLE "embed_problems" ADD CONSTRAINT "embed_problems_media_channel_id_media_channels_id_fk" FOREIGN KEY ("media_channel_id") REFERENCES "public"."media_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "embed_problems_last_seen_idx" ON "embed_problems" USING btree ("media_channel_id","last_seen");