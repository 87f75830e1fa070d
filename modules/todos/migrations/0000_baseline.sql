CREATE TABLE "todos" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"assignee_user_id" text NOT NULL,
	"created_by_user_id" text,
	"candidate_id" text,
	"application_id" text,
	"job_id" text,
	"title" text NOT NULL,
	"notes" text,
	"due_at" timestamp (3) with time zone,
	"done_at" timestamp (3) with time zone,
	"source" text DEFAULT 'person' NOT NULL,
	"source_ref" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "todos" ADD CONSTRAINT "todos_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "todos" ADD CONSTRAINT "todos_assignee_user_id_users_id_fk" FOREIGN KEY ("assignee_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "todos" ADD CONSTRAINT "todos_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "todos" ADD CONSTRAINT "todos_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "todos" ADD CONSTRAINT "todos_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "todos" ADD CONSTRAINT "todos_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "todos_assignee" ON "todos" USING btree ("workspace_id","assignee_user_id","created_at");--> statement-breakpoint
CREATE INDEX "todos_candidate" ON "todos" USING btree ("candidate_id","created_at");--> statement-breakpoint
CREATE INDEX "todos_due" ON "todos" USING btree ("workspace_id","due_at");--> statement-breakpoint
CREATE UNIQUE INDEX "todos_source_ref" ON "todos" USING btree ("workspace_id","source","source_ref","assignee_user_id");