DROP INDEX "runs_project_publish_idx";--> statement-breakpoint
CREATE INDEX "runs_list_name_idx" ON "runs" USING btree ("project_id","name","id") WHERE "runs"."rerun_of" is null;--> statement-breakpoint
CREATE INDEX "runs_list_duration_idx" ON "runs" USING btree ("project_id",((extract(epoch from ("end_time" - "start_time")) * 1000)::float8),"id") WHERE "runs"."rerun_of" is null;--> statement-breakpoint
CREATE INDEX "runs_project_publish_idx" ON "runs" USING btree ("project_id","publish_time","status","total_scenarios");