CREATE TABLE "sign_in_throttles" (
	"scope" text NOT NULL,
	"key" text NOT NULL,
	"email" text,
	"failures" integer DEFAULT 0 NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"blocked_until" timestamp with time zone,
	"signed_in_at" timestamp with time zone,
	"notified_at" timestamp with time zone,
	CONSTRAINT "sign_in_throttles_scope_key_pk" PRIMARY KEY("scope","key")
);
--> statement-breakpoint
CREATE INDEX "sign_in_throttles_email" ON "sign_in_throttles" USING btree ("email");--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "failed_sign_ins";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "locked_until";