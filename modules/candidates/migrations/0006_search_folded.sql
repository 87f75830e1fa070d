-- Candidate search folds accents and width on the indexed side too (bl_fold, db/migrations/0002_fold_text.sql),
-- as it always did on the asked side: "Tomas" finds Tomás and "Müller" finds Muller. Re-adding the
-- generated column recomputes it for every existing row. The name's trigram index is on the folded
-- name, which modules/candidates/search.ts compares (the planner uses an expression index only for the
-- identical expression). list_candidates' query now matches as the search does (the vector and the
-- name), so the substring column `search_text` and its index are no longer read.
DROP INDEX IF EXISTS "candidates_search_vector";
--> statement-breakpoint
ALTER TABLE "candidates" DROP COLUMN "search_vector";
--> statement-breakpoint
ALTER TABLE "candidates" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (
	setweight(to_tsvector('english'::regconfig, bl_fold("name")), 'A') ||
	setweight(to_tsvector('english'::regconfig, bl_fold("headline")), 'A') ||
	setweight(to_tsvector('english'::regconfig, bl_fold(bl_words("skills"))), 'B') ||
	setweight(to_tsvector('english'::regconfig, bl_fold("location")), 'C')
) STORED;
--> statement-breakpoint
CREATE INDEX "candidates_search_vector" ON "candidates" USING gin ("search_vector");
--> statement-breakpoint
DROP INDEX IF EXISTS "candidates_name_trgm";
--> statement-breakpoint
CREATE INDEX "candidates_name_trgm" ON "candidates" USING gin (bl_fold("name") gin_trgm_ops);
--> statement-breakpoint
DROP INDEX IF EXISTS "candidates_search_text_trgm";
--> statement-breakpoint
ALTER TABLE "candidates" DROP COLUMN "search_text";
