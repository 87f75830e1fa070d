CREATE TABLE "job_questions" (
	"id" text PRIMARY KEY NOT NULL,
	"job_id" text NOT NULL,
	"position" integer NOT NULL,
	"prompt" text NOT NULL,
	"kind" text DEFAULT 'text' NOT NULL,
	"required" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "job_team" (
	"job_id" text NOT NULL,
	"user_id" text NOT NULL,
	"team_role" text DEFAULT 'hiring_manager' NOT NULL,
	"added_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "job_team_job_id_user_id_pk" PRIMARY KEY("job_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"vendor_id" text,
	"vendor_job_id" text,
	"slug" text NOT NULL,
	"title" text NOT NULL,
	"location" text,
	"employment" text,
	"contract_type" text,
	"summary" text,
	"description" text,
	"must_have" text[] DEFAULT '{}'::text[] NOT NULL,
	"nice_to_have" text[] DEFAULT '{}'::text[] NOT NULL,
	"visa" text,
	"interview" text,
	"schedule" text,
	"min_years" integer,
	"department" text DEFAULT 'Technologies' NOT NULL,
	"salary_min" integer,
	"salary_max" integer,
	"status" text NOT NULL,
	"actively_hiring" boolean DEFAULT false NOT NULL,
	"created_by_user_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_write_changed" boolean DEFAULT true NOT NULL,
	"published_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	CONSTRAINT "jobs_status_valid" CHECK ("jobs"."status" in ('Draft', 'Open', 'Closed')),
	CONSTRAINT "jobs_open_published" CHECK ("jobs"."status" <> 'Open' or "jobs"."published_at" is not null),
	CONSTRAINT "jobs_closed_at_iff_closed" CHECK (("jobs"."status" = 'Closed') = ("jobs"."closed_at" is not null))
);
--> statement-breakpoint
ALTER TABLE "job_questions" ADD CONSTRAINT "job_questions_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "job_team" ADD CONSTRAINT "job_team_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "job_team" ADD CONSTRAINT "job_team_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_vendor_id_vendors_id_fk" FOREIGN KEY ("vendor_id") REFERENCES "public"."vendors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "job_questions_job" ON "job_questions" USING btree ("job_id","position");--> statement-breakpoint
CREATE INDEX "job_team_user" ON "job_team" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_vendor_job" ON "jobs" USING btree ("vendor_id","vendor_job_id");--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_workspace_slug" ON "jobs" USING btree ("workspace_id","slug");--> statement-breakpoint
CREATE INDEX "jobs_vendor_created" ON "jobs" USING btree ("vendor_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "jobs_workspace_created" ON "jobs" USING btree ("workspace_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "jobs_workspace_status_created" ON "jobs" USING btree ("workspace_id","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- Below: what drizzle-kit does not model (it never drops columns or indexes it does not know).
-- jobs.search_vector: the weighted full-text vector of a job, stored so ranking (`ts_rank`) reads it
-- instead of recomputing it for every matched row; modules/jobs/search.ts repeats the expression.
ALTER TABLE "jobs" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (
	setweight(to_tsvector('english'::regconfig, "title"), 'A') ||
	setweight(to_tsvector('english'::regconfig, bl_words("must_have") || ' ' || bl_words("nice_to_have")), 'B') ||
	setweight(to_tsvector('english'::regconfig, coalesce("location", '') || ' ' || "department" || ' ' || coalesce("summary", '')), 'C')
) STORED;
--> statement-breakpoint
CREATE INDEX "jobs_search_vector" ON "jobs" USING gin ("search_vector");
--> statement-breakpoint
CREATE INDEX "jobs_title_trgm" ON "jobs" USING gin ("title" gin_trgm_ops);
