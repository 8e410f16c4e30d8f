CREATE TABLE "scenario_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"branch" text NOT NULL,
	"feature_name" text NOT NULL,
	"scenario_name" text NOT NULL,
	"environment" text NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"run_id" uuid,
	"message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "scenario_jobs" ADD CONSTRAINT "scenario_jobs_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scenario_jobs" ADD CONSTRAINT "scenario_jobs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scenario_jobs" ADD CONSTRAINT "scenario_jobs_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scenario_jobs_state_idx" ON "scenario_jobs" USING btree ("state","created_at");