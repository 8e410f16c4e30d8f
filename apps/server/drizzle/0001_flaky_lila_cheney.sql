CREATE TABLE "mail_users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid NOT NULL,
	"username" text NOT NULL,
	"password_encrypted" text NOT NULL,
	"secret_key_encrypted" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "project_secrets" (
	"project_id" uuid PRIMARY KEY NOT NULL,
	"wrapped_data_key" text,
	"repo_username" text,
	"repo_token_encrypted" text,
	"repo_url" text,
	"repo_configured_by" uuid,
	"repo_configured_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "workspace_state" (
	"project_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"last_env" text,
	"last_branch" text,
	"last_feature_index" integer,
	"last_scenario_index" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workspace_state_project_id_user_id_pk" PRIMARY KEY("project_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "mail_users" ADD CONSTRAINT "mail_users_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_secrets" ADD CONSTRAINT "project_secrets_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_secrets" ADD CONSTRAINT "project_secrets_repo_configured_by_users_id_fk" FOREIGN KEY ("repo_configured_by") REFERENCES "users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_state" ADD CONSTRAINT "workspace_state_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workspace_state" ADD CONSTRAINT "workspace_state_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mail_users_project_username_key" ON "mail_users" USING btree ("project_id","username");