CREATE TABLE "sms_opt_outs" (
	"to_match" text PRIMARY KEY NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "sms_consent_text" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "sms_consent_text_sha256" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "sms_consented_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "engagements" ADD COLUMN "owner_user_id" integer;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "channel" text DEFAULT 'email' NOT NULL;--> statement-breakpoint
ALTER TABLE "engagements" ADD CONSTRAINT "engagements_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_channel_check" CHECK ("messages"."channel" in ('email', 'sms'));--> statement-breakpoint
-- An engagement's owner, at first: the user who created it, as the audit trail's first create event names them.
UPDATE "engagements" e SET "owner_user_id" = (
  SELECT a."actor_user_id" FROM "audit_events" a
  WHERE a."entity" = 'engagements' AND a."entity_id" = e."id"::text AND a."action" = 'create' AND a."actor_user_id" IN (SELECT u."id" FROM "users" u)
  ORDER BY a."id" LIMIT 1
) WHERE e."owner_user_id" IS NULL;
