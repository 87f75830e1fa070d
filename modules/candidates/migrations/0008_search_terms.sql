-- Candidate search finds skills spelled with symbols (C#, C++, F#, .NET, node.js, ASP.NET): the vector
-- is over bl_terms (db/migrations/0003_search_terms.sql: bl_fold, then those symbols spelled as
-- letters), as the words asked are (core/text-search.ts). Re-adding the generated column recomputes it
-- for every existing row; dropping it dropped its index, made again here.
ALTER TABLE "candidates" DROP COLUMN "search_vector";
--> statement-breakpoint
ALTER TABLE "candidates" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (
	setweight(to_tsvector('english'::regconfig, bl_terms("name")), 'A') ||
	setweight(to_tsvector('english'::regconfig, bl_terms("headline")), 'A') ||
	setweight(to_tsvector('english'::regconfig, bl_terms(bl_words("skills"))), 'B') ||
	setweight(to_tsvector('english'::regconfig, bl_terms("location")), 'C')
) STORED;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "candidates_search_vector" ON "candidates" USING gin ("search_vector");
