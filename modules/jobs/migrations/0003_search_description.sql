-- jobs.search_vector also holds the description (weight D, below title, skills and the rest): the
-- careers site searches "title, skills and description" with the job search's ranking
-- (modules/jobs/search.ts), and so does the `search` tool. HTML tags are not words to the parser.
DROP INDEX IF EXISTS "jobs_search_vector";
--> statement-breakpoint
ALTER TABLE "jobs" DROP COLUMN "search_vector";
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (
	setweight(to_tsvector('english'::regconfig, "title"), 'A') ||
	setweight(to_tsvector('english'::regconfig, bl_words("must_have") || ' ' || bl_words("nice_to_have")), 'B') ||
	setweight(to_tsvector('english'::regconfig, coalesce("location", '') || ' ' || "department" || ' ' || coalesce("summary", '')), 'C') ||
	setweight(to_tsvector('english'::regconfig, coalesce("description", '')), 'D')
) STORED;
--> statement-breakpoint
CREATE INDEX "jobs_search_vector" ON "jobs" USING gin ("search_vector");
