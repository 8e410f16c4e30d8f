CREATE TABLE "instance_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "worker_presence" (
	"worker_id" text PRIMARY KEY NOT NULL,
	"token_id" uuid NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"busy" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activity_log" ADD COLUMN "kind" text DEFAULT 'client' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "disabled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "worker_presence" ADD CONSTRAINT "worker_presence_token_id_worker_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "worker_tokens"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "activity_log_admin_idx" ON "activity_log" USING btree ("kind","id");