CREATE TABLE "recorded_navigations" (
	"project_id" uuid NOT NULL,
	"from_route" text NOT NULL,
	"to_route" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "recorded_navigations_project_id_from_route_to_route_pk" PRIMARY KEY("project_id","from_route","to_route")
);
--> statement-breakpoint
ALTER TABLE "recorded_navigations" ADD CONSTRAINT "recorded_navigations_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE cascade ON UPDATE no action;