CREATE TABLE "execution_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"execution_run_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"flow_index" integer NOT NULL,
	"group_index" integer NOT NULL,
	"thread_count" integer NOT NULL,
	"position" integer NOT NULL,
	"feature_path" text NOT NULL,
	"scenario_name" text NOT NULL,
	"browser" text NOT NULL,
	"viewport" text NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"worker_id" text,
	"access_key_id" uuid,
	"heartbeat_at" timestamp with time zone,
	"message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "execution_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"execution_id" uuid NOT NULL,
	"project_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"branch" text NOT NULL,
	"env" text NOT NULL,
	"trigger" text NOT NULL,
	"state" text DEFAULT 'running' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "execution_schedule_fires" (
	"execution_id" uuid NOT NULL,
	"slot" timestamp with time zone NOT NULL,
	"fired_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "execution_schedule_fires_execution_id_slot_pk" PRIMARY KEY("execution_id","slot")
);
--> statement-breakpoint
CREATE TABLE "oversight_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"run_id" uuid NOT NULL,
	"test_case_id" uuid NOT NULL,
	"branch" text DEFAULT 'main' NOT NULL,
	"feature_name" text NOT NULL,
	"scenario_name" text NOT NULL,
	"classification" text NOT NULL,
	"confidence" double precision NOT NULL,
	"file" text NOT NULL,
	"before" text NOT NULL,
	"after" text NOT NULL,
	"changes" text NOT NULL,
	"before_screenshot_id" text,
	"after_screenshot_id" text,
	"state" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recorded_pages" (
	"project_id" uuid NOT NULL,
	"route" text NOT NULL,
	"snapshot" text NOT NULL,
	"steps" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recorded_pages_project_id_route_pk" PRIMARY KEY("project_id","route")
);
--> statement-breakpoint
CREATE TABLE "socket_io_attachments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now(),
	"payload" "bytea"
);
--> statement-breakpoint
CREATE TABLE "worker_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "scenario_jobs" ADD COLUMN "heal" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "test_cases" ADD COLUMN "append_key" text;--> statement-breakpoint
ALTER TABLE "execution_jobs" ADD CONSTRAINT "execution_jobs_execution_run_id_execution_runs_id_fk" FOREIGN KEY ("execution_run_id") REFERENCES "execution_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "execution_jobs" ADD CONSTRAINT "execution_jobs_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "execution_runs" ADD CONSTRAINT "execution_runs_execution_id_executions_id_fk" FOREIGN KEY ("execution_id") REFERENCES "executions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "execution_runs" ADD CONSTRAINT "execution_runs_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "execution_runs" ADD CONSTRAINT "execution_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "execution_runs" ADD CONSTRAINT "execution_runs_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "execution_schedule_fires" ADD CONSTRAINT "execution_schedule_fires_execution_id_executions_id_fk" FOREIGN KEY ("execution_id") REFERENCES "executions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oversight_items" ADD CONSTRAINT "oversight_items_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oversight_items" ADD CONSTRAINT "oversight_items_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oversight_items" ADD CONSTRAINT "oversight_items_test_case_id_test_cases_id_fk" FOREIGN KEY ("test_case_id") REFERENCES "test_cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recorded_pages" ADD CONSTRAINT "recorded_pages_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "execution_jobs_state_idx" ON "execution_jobs" USING btree ("state","created_at");--> statement-breakpoint
CREATE INDEX "execution_jobs_run_idx" ON "execution_jobs" USING btree ("execution_run_id","flow_index","group_index");--> statement-breakpoint
CREATE INDEX "execution_runs_execution_idx" ON "execution_runs" USING btree ("execution_id","created_at");--> statement-breakpoint
CREATE INDEX "oversight_items_project_idx" ON "oversight_items" USING btree ("project_id","state","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "worker_tokens_token_hash_key" ON "worker_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "test_cases_run_append_key" ON "test_cases" USING btree ("run_id","append_key");