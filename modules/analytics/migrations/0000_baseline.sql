CREATE TABLE "careers_events" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"job_id" text NOT NULL,
	"kind" text NOT NULL,
	"source" text NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "careers_events_kind_valid" CHECK ("careers_events"."kind" in ('view', 'application'))
);
--> statement-breakpoint
ALTER TABLE "careers_events" ADD CONSTRAINT "careers_events_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "careers_events" ADD CONSTRAINT "careers_events_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "careers_events_workspace_at" ON "careers_events" USING btree ("workspace_id","at");--> statement-breakpoint
CREATE INDEX "careers_events_job_at" ON "careers_events" USING btree ("job_id","at");