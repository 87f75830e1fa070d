CREATE TABLE "bench_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"candidate_id" text NOT NULL,
	"role_family" text NOT NULL,
	"job_id" text,
	"added_by_user_id" text,
	"available_from" date,
	"hourly_rate" integer,
	"added_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bench_entries" ADD CONSTRAINT "bench_entries_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bench_entries" ADD CONSTRAINT "bench_entries_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bench_entries" ADD CONSTRAINT "bench_entries_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bench_entries" ADD CONSTRAINT "bench_entries_added_by_user_id_users_id_fk" FOREIGN KEY ("added_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bench_candidate_family" ON "bench_entries" USING btree ("workspace_id","candidate_id","role_family");--> statement-breakpoint
CREATE INDEX "bench_workspace_added" ON "bench_entries" USING btree ("workspace_id","added_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "bench_workspace_family_added" ON "bench_entries" USING btree ("workspace_id","role_family","added_at" DESC NULLS LAST,"id" DESC NULLS LAST);