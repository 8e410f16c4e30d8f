ALTER TABLE "execution_jobs" ADD COLUMN "retry_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "execution_jobs" ADD COLUMN "errored_worker_id" text;--> statement-breakpoint
ALTER TABLE "execution_runs" ADD COLUMN "errored_jobs" integer;--> statement-breakpoint
ALTER TABLE "scenario_jobs" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "scenario_jobs" ADD COLUMN "retry_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "scenario_jobs" ADD COLUMN "errored_owner" text;