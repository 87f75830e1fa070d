-- Job search finds skills spelled with symbols (C#, C++, F#, .NET, node.js, ASP.NET) in titles, skills
-- and descriptions: the vector is over bl_terms (db/migrations/0003_search_terms.sql: bl_fold, then
-- those symbols spelled as letters), as the words asked are (core/text-search.ts). Re-adding the
-- generated column recomputes it for every existing row; dropping it dropped its index, made again here.
ALTER TABLE "jobs" DROP COLUMN "search_vector";
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (
	setweight(to_tsvector('english'::regconfig, bl_terms("title")), 'A') ||
	setweight(to_tsvector('english'::regconfig, bl_terms(bl_words("must_have") || ' ' || bl_words("nice_to_have"))), 'B') ||
	setweight(to_tsvector('english'::regconfig, bl_terms(coalesce("location", '') || ' ' || "department" || ' ' || coalesce("summary", ''))), 'C') ||
	setweight(to_tsvector('english'::regconfig, bl_terms("description")), 'D')
) STORED;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "jobs_search_vector" ON "jobs" USING gin ("search_vector");
