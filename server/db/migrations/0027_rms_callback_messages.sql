CREATE TABLE "rms_callback_messages" (
	"contact_id" integer NOT NULL,
	"webhook_id" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	CONSTRAINT "rms_callback_messages_contact_id_webhook_id_pk" PRIMARY KEY("contact_id","webhook_id")
);
--> statement-breakpoint
CREATE INDEX "rms_callback_messages_received_at_idx" ON "rms_callback_messages" USING btree ("received_at");