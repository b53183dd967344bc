CREATE TABLE "sms_templates" (
	"kind" text NOT NULL,
	"language" text NOT NULL,
	"text" text NOT NULL,
	"modified_by" integer,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sms_templates_kind_language_pk" PRIMARY KEY("kind","language")
);
--> statement-breakpoint
ALTER TABLE "sms_templates" ADD CONSTRAINT "sms_templates_modified_by_users_id_fk" FOREIGN KEY ("modified_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;