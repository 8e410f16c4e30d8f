CREATE TABLE "project_retention" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"keep_days" integer,
	"keep_runs" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "run_artifacts" (
	"run_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"artifact_id" text NOT NULL,
	CONSTRAINT "run_artifacts_run_id_artifact_id_pk" PRIMARY KEY("run_id","artifact_id")
);
--> statement-breakpoint
ALTER TABLE "project_retention" ADD CONSTRAINT "project_retention_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "run_artifacts" ADD CONSTRAINT "run_artifacts_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "run_artifacts" ADD CONSTRAINT "run_artifacts_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "run_artifacts_artifact_idx" ON "run_artifacts" USING btree ("project_id","artifact_id");--> statement-breakpoint
-- The artifacts of runs stored before this migration, read once from their reports.
INSERT INTO "run_artifacts" ("run_id", "project_id", "artifact_id")
SELECT DISTINCT tc."run_id", tc."project_id", named.id #>> '{}'
FROM "test_cases" tc
CROSS JOIN LATERAL (
  SELECT jsonb_path_query(tc."report", 'lax $.steps[*].commands[*].screenshotId') AS id
  UNION ALL SELECT jsonb_path_query(tc."report", 'lax $.steps[*].commands[*].healing.beforeScreenshotId')
  UNION ALL SELECT jsonb_path_query(tc."report", 'lax $.reportFiles.junit')
  UNION ALL SELECT jsonb_path_query(tc."report", 'lax $.reportFiles.html')
  UNION ALL SELECT jsonb_path_query(tc."report", 'lax $.traceFileId')
) named
WHERE jsonb_typeof(named.id) = 'string'
ON CONFLICT DO NOTHING;
