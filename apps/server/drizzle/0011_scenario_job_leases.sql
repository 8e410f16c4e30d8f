ALTER TABLE "scenario_jobs" ADD COLUMN "owner" text;--> statement-breakpoint
ALTER TABLE "scenario_jobs" ADD COLUMN "heartbeat_at" timestamp with time zone;