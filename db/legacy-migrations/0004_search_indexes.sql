-- Full-text and trigram search for the `search` tool and the candidate list filter (issue 5).
-- Kept out of the drizzle schema on purpose: drizzle-kit does not model tsvector columns or
-- operator classes, and columns it does not know it never drops. The expressions here are repeated
-- verbatim in modules/candidates/search-sql.ts and modules/jobs/search.ts (the planner only uses an
-- expression index for the identical expression).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
-- array_to_string is only STABLE; this wrapper is safe to mark IMMUTABLE for text[] and lets
-- generated columns and expression indexes use it.
CREATE OR REPLACE FUNCTION bl_words(text[]) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT coalesce(array_to_string($1, ' '), '') $$;
--> statement-breakpoint
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
CREATE INDEX "jobs_search_vector" ON "jobs" USING gin ((
	setweight(to_tsvector('english'::regconfig, "title"), 'A') ||
	setweight(to_tsvector('english'::regconfig, bl_words("must_have") || ' ' || bl_words("nice_to_have")), 'B') ||
	setweight(to_tsvector('english'::regconfig, coalesce("location", '') || ' ' || "department" || ' ' || coalesce("summary", '')), 'C')
));
--> statement-breakpoint
CREATE INDEX "jobs_title_trgm" ON "jobs" USING gin ("title" gin_trgm_ops);
