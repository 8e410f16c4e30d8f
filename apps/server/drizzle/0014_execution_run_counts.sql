ALTER TABLE "execution_runs" ADD COLUMN "total_jobs" integer;--> statement-breakpoint
ALTER TABLE "execution_runs" ADD COLUMN "passed_jobs" integer;--> statement-breakpoint
ALTER TABLE "execution_runs" ADD COLUMN "failed_jobs" integer;--> statement-breakpoint
-- Runs that ended before this migration keep their counts before their jobs become history.
UPDATE "execution_runs" SET
  "total_jobs" = (SELECT count(*) FROM "execution_jobs" j WHERE j."execution_run_id" = "execution_runs"."id"),
  "passed_jobs" = (SELECT count(*) FROM "execution_jobs" j WHERE j."execution_run_id" = "execution_runs"."id" AND j."state" = 'passed'),
  "failed_jobs" = (SELECT count(*) FROM "execution_jobs" j WHERE j."execution_run_id" = "execution_runs"."id" AND j."state" = 'failed')
WHERE "state" <> 'running';
