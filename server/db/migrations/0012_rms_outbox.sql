CREATE TABLE "rms_deliveries" (
	"contact_id" integer PRIMARY KEY NOT NULL,
	"referral_key" uuid DEFAULT gen_random_uuid() NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"lease_id" uuid,
	"last_attempt_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "rms_deliveries_referral_key_unique" UNIQUE("referral_key"),
	CONSTRAINT "rms_deliveries_status_check" CHECK ("rms_deliveries"."status" in ('pending', 'retrying', 'delivered', 'undelivered'))
);
--> statement-breakpoint
ALTER TABLE "rms_providers" DROP CONSTRAINT "rms_providers_kind_check";--> statement-breakpoint
ALTER TABLE "rms_providers" ADD COLUMN "bearer_token" text;--> statement-breakpoint
ALTER TABLE "rms_providers" ADD COLUMN "is_active" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "rms_providers" ADD COLUMN "created" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "rms_providers" ADD COLUMN "modified" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "rms_deliveries" ADD CONSTRAINT "rms_deliveries_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rms_deliveries_due_idx" ON "rms_deliveries" USING btree ("next_attempt_at") WHERE "rms_deliveries"."status" in ('pending', 'retrying');--> statement-breakpoint
CREATE INDEX "rms_deliveries_status_idx" ON "rms_deliveries" USING btree ("status");--> statement-breakpoint
-- Every contact stored so far gets its delivery: delivered when the record system accepted it.
INSERT INTO "rms_deliveries" ("contact_id", "status", "attempts", "last_attempt_at", "delivered_at")
SELECT c."id",
       CASE WHEN c."pushed_at" IS NOT NULL THEN 'delivered' ELSE 'undelivered' END,
       (SELECT count(*)::int FROM "rms_audits" a WHERE a."contact_id" = c."id"),
       (SELECT max(a."created") FROM "rms_audits" a WHERE a."contact_id" = c."id"),
       c."pushed_at"
FROM "contacts" c;--> statement-breakpoint
ALTER TABLE "contacts" DROP COLUMN "pushed_at";--> statement-breakpoint
ALTER TABLE "rms_providers" ADD CONSTRAINT "rms_providers_kind_check" CHECK ("rms_providers"."kind" in ('none', 'webhook', 'fhir'));--> statement-breakpoint
ALTER TABLE "rms_providers" DROP COLUMN "max_attempts";
