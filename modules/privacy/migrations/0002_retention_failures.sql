CREATE TABLE "retention_failures" (
	"candidate_id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"failures" integer NOT NULL,
	"first_failed_at" timestamp (3) with time zone NOT NULL,
	"last_failed_at" timestamp (3) with time zone NOT NULL,
	"retry_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "retention_failures" ADD CONSTRAINT "retention_failures_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "retention_failures" ADD CONSTRAINT "retention_failures_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "retention_failures_workspace" ON "retention_failures" USING btree ("workspace_id","retry_at");