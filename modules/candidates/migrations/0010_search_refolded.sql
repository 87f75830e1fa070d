-- bl_fold now drops invisible characters and spells ß, æ, ø, ł… as plain letters (db/migrations/0004_fold_letters_invisible.sql),
-- and what was indexed with the old fold must be folded again: re-adding the generated column recomputes it for every
-- existing row (through bl_terms, which folds with bl_fold); dropping it dropped its index, made again here. The
-- name's trigram index is on bl_fold("name"), made again so that it holds the new fold of every name.
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
--> statement-breakpoint
DROP INDEX IF EXISTS "candidates_name_trgm";
--> statement-breakpoint
CREATE INDEX "candidates_name_trgm" ON "candidates" USING gin (bl_fold("name") gin_trgm_ops);
