CREATE TABLE "project_run_totals" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"runs" integer DEFAULT 0 NOT NULL,
	"scenarios" bigint DEFAULT 0 NOT NULL,
	"passed" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX "runs_project_publish_idx";--> statement-breakpoint
ALTER TABLE "project_run_totals" ADD CONSTRAINT "project_run_totals_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "runs_list_name_idx" ON "runs" USING btree ("project_id","name","id") WHERE "runs"."rerun_of" is null;--> statement-breakpoint
CREATE INDEX "runs_list_duration_idx" ON "runs" USING btree ("project_id",((extract(epoch from ("end_time" - "start_time")) * 1000)::float8),"id") WHERE "runs"."rerun_of" is null;--> statement-breakpoint
CREATE INDEX "runs_project_publish_idx" ON "runs" USING btree ("project_id","publish_time","status","total_scenarios");--> statement-breakpoint
-- Statement triggers with transition tables: one upsert per statement and project, however many rows
-- it touched (a retention batch deletes 1,000 runs in one statement). `set search_path from current`
-- pins the schema the migration ran in, so the trigger finds its table in any session.
CREATE FUNCTION "project_run_totals_apply"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO project_run_totals AS t (project_id, runs, scenarios, passed, failed)
    SELECT project_id, count(*), coalesce(sum(total_scenarios), 0),
           count(*) FILTER (WHERE status = 'PASSED'), count(*) FILTER (WHERE status = 'FAILED')
    FROM new_runs GROUP BY project_id
    ON CONFLICT (project_id) DO UPDATE SET runs = t.runs + excluded.runs, scenarios = t.scenarios + excluded.scenarios,
      passed = t.passed + excluded.passed, failed = t.failed + excluded.failed;
  END IF;
  IF TG_OP IN ('DELETE', 'UPDATE') THEN
    UPDATE project_run_totals AS t SET runs = t.runs - d.runs, scenarios = t.scenarios - d.scenarios,
      passed = t.passed - d.passed, failed = t.failed - d.failed
    FROM (SELECT project_id, count(*) AS runs, coalesce(sum(total_scenarios), 0) AS scenarios,
                 count(*) FILTER (WHERE status = 'PASSED') AS passed, count(*) FILTER (WHERE status = 'FAILED') AS failed
          FROM old_runs GROUP BY project_id) d
    WHERE t.project_id = d.project_id;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "runs_totals_insert" AFTER INSERT ON "runs" REFERENCING NEW TABLE AS new_runs
  FOR EACH STATEMENT EXECUTE FUNCTION "project_run_totals_apply"();
--> statement-breakpoint
CREATE TRIGGER "runs_totals_update" AFTER UPDATE ON "runs" REFERENCING OLD TABLE AS old_runs NEW TABLE AS new_runs
  FOR EACH STATEMENT EXECUTE FUNCTION "project_run_totals_apply"();
--> statement-breakpoint
CREATE TRIGGER "runs_totals_delete" AFTER DELETE ON "runs" REFERENCING OLD TABLE AS old_runs
  FOR EACH STATEMENT EXECUTE FUNCTION "project_run_totals_apply"();
--> statement-breakpoint
INSERT INTO "project_run_totals" ("project_id", "runs", "scenarios", "passed", "failed")
SELECT "project_id", count(*), coalesce(sum("total_scenarios"), 0),
       count(*) FILTER (WHERE "status" = 'PASSED'), count(*) FILTER (WHERE "status" = 'FAILED')
FROM "runs" GROUP BY "project_id";
