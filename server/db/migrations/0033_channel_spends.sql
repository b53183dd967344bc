CREATE TABLE "channel_spends" (
	"id" serial PRIMARY KEY NOT NULL,
	"media_channel_id" integer NOT NULL,
	"amount_minor" bigint NOT NULL,
	"currency" text NOT NULL,
	"period_start" date NOT NULL,
	"period_end" date NOT NULL,
	"campaign" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "channel_spends_period_check" CHECK ("channel_spends"."period_start" <= "channel_spends"."period_end"),
	CONSTRAINT "channel_spends_amount_check" CHECK ("channel_spends"."amount_minor" >= 0),
	CONSTRAINT "channel_spends_currency_check" CHECK ("channel_spends"."currency" ~ '^[A-Z]{3}$')
);
--> statement-breakpoint
ALTER TABLE "channel_spends" ADD CONSTRAINT "channel_spends_media_channel_id_media_channels_id_fk" FOREIGN KEY ("media_channel_id") REFERENCES "public"."media_channels"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "channel_spends_channel_idx" ON "channel_spends" USING btree ("media_channel_id","period_start");