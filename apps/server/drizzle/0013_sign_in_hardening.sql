ALTER TABLE "access_keys" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "access_keys" ADD COLUMN "reads_secrets" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "runs" ADD COLUMN "upload_digest" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "instance_admin" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "failed_sign_ins" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "locked_until" timestamp with time zone;--> statement-breakpoint
-- Keys made before this migration keep reading secrets when a project admin made them, as do jobs' keys.
UPDATE "access_keys" SET "reads_secrets" = true WHERE "scope" = 'run' OR EXISTS (SELECT 1 FROM "project_members" m WHERE m."project_id" = "access_keys"."project_id" AND m."user_id" = "access_keys"."created_by" AND m."role" = 'ADMIN');--> statement-breakpoint
-- An install that already has users: its first user is the instance administrator.
UPDATE "users" SET "instance_admin" = true WHERE "id" = (SELECT "id" FROM "users" ORDER BY "created_at", "id" LIMIT 1);
