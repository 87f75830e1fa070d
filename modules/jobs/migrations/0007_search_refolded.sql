-- bl_fold now drops invisible characters and spells ß, æ, ø, ł… as plain letters (db/migrations/0004_fold_letters_invisible.sql),
-- and what was indexed with the old fold must be folded again: re-adding the generated column recomputes it for every
-- existing row (through bl_terms, which folds with bl_fold); dropping it dropped its index, made again here. The
-- title's trigram index is on bl_fold("title"), made again so that it holds the new fold of every title.
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
--> statement-breakpoint
DROP INDEX IF EXISTS "jobs_title_trgm";
--> statement-breakpoint
CREATE INDEX "jobs_title_trgm" ON "jobs" USING gin (bl_fold("title") gin_trgm_ops);
