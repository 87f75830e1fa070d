CREATE TABLE "application_answers" (
	"application_id" text NOT NULL,
	"question_id" text NOT NULL,
	"answer" text NOT NULL,
	CONSTRAINT "application_answers_application_id_question_id_pk" PRIMARY KEY("application_id","question_id")
);
--> statement-breakpoint
CREATE TABLE "application_daily_counts" (
	"workspace_id" text NOT NULL,
	"day" date NOT NULL,
	"stage_key" text NOT NULL,
	"outcome" text NOT NULL,
	"kind" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "application_daily_counts_workspace_id_day_stage_key_outcome_kind_pk" PRIMARY KEY("workspace_id","day","stage_key","outcome","kind")
);
--> statement-breakpoint
CREATE TABLE "applications" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"candidate_id" text NOT NULL,
	"job_id" text NOT NULL,
	"stage_key" text NOT NULL,
	"outcome" text,
	"archived" boolean DEFAULT false NOT NULL,
	"kind" text DEFAULT 'applicant' NOT NULL,
	"shortlist" text DEFAULT 'none' NOT NULL,
	"resume_check" jsonb,
	"resume_score" integer,
	"source" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"stage_changed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "candidates" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"phone" text,
	"location" text,
	"headline" text,
	"skills" text[] DEFAULT '{}'::text[] NOT NULL,
	"work_authorization" text,
	"years_experience" integer,
	"resume_file_name" text,
	"resume_mime" text,
	"resume_path" text,
	"resume_text" text,
	"source" text DEFAULT 'sourced' NOT NULL,
	"owner_user_id" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "kept_resumes" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"file_key" text NOT NULL,
	"file_name" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notes" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"candidate_id" text NOT NULL,
	"application_id" text,
	"author_user_id" text NOT NULL,
	"body" text NOT NULL,
	"visibility" text DEFAULT 'shared' NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pipeline_stages" (
	"workspace_id" text NOT NULL,
	"key" text NOT NULL,
	"label" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "pipeline_stages_workspace_id_key_pk" PRIMARY KEY("workspace_id","key")
);
--> statement-breakpoint
CREATE TABLE "ratings" (
	"id" text PRIMARY KEY NOT NULL,
	"application_id" text NOT NULL,
	"user_id" text NOT NULL,
	"score" integer NOT NULL,
	"comment" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "application_answers" ADD CONSTRAINT "application_answers_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_answers" ADD CONSTRAINT "application_answers_question_id_job_questions_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."job_questions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidates" ADD CONSTRAINT "candidates_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidates" ADD CONSTRAINT "candidates_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "kept_resumes" ADD CONSTRAINT "kept_resumes_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pipeline_stages" ADD CONSTRAINT "pipeline_stages_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "applications_candidate_job" ON "applications" USING btree ("candidate_id","job_id");--> statement-breakpoint
CREATE INDEX "applications_job_created" ON "applications" USING btree ("job_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "candidates_workspace_email" ON "candidates" USING btree ("workspace_id","email");--> statement-breakpoint
CREATE INDEX "candidates_workspace_created" ON "candidates" USING btree ("workspace_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "kept_resumes_expires" ON "kept_resumes" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "notes_candidate" ON "notes" USING btree ("candidate_id","created_at");--> statement-breakpoint
CREATE INDEX "ratings_application" ON "ratings" USING btree ("application_id");--> statement-breakpoint
-- Below: what drizzle-kit does not model (it never drops columns or indexes it does not know).
-- Full-text and trigram search of candidates; the expressions are repeated verbatim in
-- modules/candidates/search-sql.ts (the planner only uses an expression index for the identical expression).
ALTER TABLE "candidates" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower("name" || ' ' || coalesce("headline", '') || ' ' || coalesce("location", '') || ' ' || bl_words("skills"))) STORED;
--> statement-breakpoint
ALTER TABLE "candidates" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (
	setweight(to_tsvector('english'::regconfig, "name"), 'A') ||
	setweight(to_tsvector('english'::regconfig, coalesce("headline", '')), 'A') ||
	setweight(to_tsvector('english'::regconfig, bl_words("skills")), 'B') ||
	setweight(to_tsvector('english'::regconfig, coalesce("location", '')), 'C')
) STORED;
--> statement-breakpoint
CREATE INDEX "candidates_search_text_trgm" ON "candidates" USING gin ("search_text" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "candidates_search_vector" ON "candidates" USING gin ("search_vector");
--> statement-breakpoint
CREATE INDEX "candidates_name_trgm" ON "candidates" USING gin ("name" gin_trgm_ops);
--> statement-breakpoint
-- The applicant counts of list_jobs and get_job (modules/candidates/facts.ts) as an index-only scan.
-- drizzle's index builder has no INCLUDE, hence here (as the next one).
CREATE INDEX "applications_job_counts" ON "applications" ("job_id") INCLUDE ("workspace_id", "stage_key", "kind") WHERE "archived" = false;
--> statement-breakpoint
-- The workspace's applications newest first (list_applications, keyset paging), with kind,
-- stage_key and outcome so the analytics funnel's partial-day counts (modules/candidates/funnel.ts)
-- are an index-only scan.
CREATE INDEX "applications_workspace_created" ON "applications" ("workspace_id", "created_at" DESC NULLS LAST, "id" DESC NULLS LAST) INCLUDE ("kind", "stage_key", "outcome");
--> statement-breakpoint
-- application_daily_counts, kept by a trigger on applications so every writer (apply form, stage
-- moves, seeds, fixtures, imports) keeps it right; the analytics funnel sums these few rows a day.
-- A move changes two counter rows, always in the order of their keys, so two moves in opposite
-- directions on the same day cannot deadlock.
CREATE OR REPLACE FUNCTION application_daily_counts_add(ws text, d date, stage text, result text, k text, delta integer) RETURNS void LANGUAGE sql AS $$
	INSERT INTO application_daily_counts (workspace_id, day, stage_key, outcome, kind, n) VALUES (ws, d, stage, result, k, delta)
	ON CONFLICT (workspace_id, day, stage_key, outcome, kind) DO UPDATE SET n = application_daily_counts.n + excluded.n
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION application_daily_counts_keep() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	old_day date;
	new_day date;
BEGIN
	IF TG_OP <> 'INSERT' THEN old_day := (OLD.created_at AT TIME ZONE 'UTC')::date; END IF;
	IF TG_OP <> 'DELETE' THEN new_day := (NEW.created_at AT TIME ZONE 'UTC')::date; END IF;
	IF TG_OP = 'INSERT' THEN
		PERFORM application_daily_counts_add(NEW.workspace_id, new_day, NEW.stage_key, coalesce(NEW.outcome, ''), NEW.kind, 1);
	ELSIF TG_OP = 'DELETE' THEN
		PERFORM application_daily_counts_add(OLD.workspace_id, old_day, OLD.stage_key, coalesce(OLD.outcome, ''), OLD.kind, -1);
	ELSIF ROW(OLD.workspace_id, old_day, OLD.stage_key, coalesce(OLD.outcome, ''), OLD.kind) IS DISTINCT FROM ROW(NEW.workspace_id, new_day, NEW.stage_key, coalesce(NEW.outcome, ''), NEW.kind) THEN
		IF ROW(OLD.workspace_id, old_day, OLD.stage_key, coalesce(OLD.outcome, ''), OLD.kind) < ROW(NEW.workspace_id, new_day, NEW.stage_key, coalesce(NEW.outcome, ''), NEW.kind) THEN
			PERFORM application_daily_counts_add(OLD.workspace_id, old_day, OLD.stage_key, coalesce(OLD.outcome, ''), OLD.kind, -1);
			PERFORM application_daily_counts_add(NEW.workspace_id, new_day, NEW.stage_key, coalesce(NEW.outcome, ''), NEW.kind, 1);
		ELSE
			PERFORM application_daily_counts_add(NEW.workspace_id, new_day, NEW.stage_key, coalesce(NEW.outcome, ''), NEW.kind, 1);
			PERFORM application_daily_counts_add(OLD.workspace_id, old_day, OLD.stage_key, coalesce(OLD.outcome, ''), OLD.kind, -1);
		END IF;
	END IF;
	RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER applications_daily_counts AFTER INSERT OR DELETE OR UPDATE OF workspace_id, created_at, stage_key, outcome, kind ON applications
FOR EACH ROW EXECUTE FUNCTION application_daily_counts_keep();
