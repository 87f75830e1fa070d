-- Job search folds accents and width on the indexed side too (bl_fold, db/migrations/0002_fold_text.sql),
-- as it always did on the asked side: "Jàva", "ＪＡＶＡ" and "java" find the same jobs, and a title
-- written "Développeur" is found by "developpeur". Re-adding the generated column recomputes it for
-- every existing row. The title's trigram index is on the folded title, which modules/jobs/matching.ts
-- compares (the planner uses an expression index only for the identical expression).
DROP INDEX IF EXISTS "jobs_search_vector";
--> statement-breakpoint
ALTER TABLE "jobs" DROP COLUMN "search_vector";
--> statement-breakpoint
ALTER TABLE "jobs" ADD COLUMN "search_vector" tsvector GENERATED ALWAYS AS (
	setweight(to_tsvector('english'::regconfig, bl_fold("title")), 'A') ||
	setweight(to_tsvector('english'::regconfig, bl_fold(bl_words("must_have") || ' ' || bl_words("nice_to_have"))), 'B') ||
	setweight(to_tsvector('english'::regconfig, bl_fold(coalesce("location", '') || ' ' || "department" || ' ' || coalesce("summary", ''))), 'C') ||
	setweight(to_tsvector('english'::regconfig, bl_fold("description")), 'D')
) STORED;
--> statement-breakpoint
CREATE INDEX "jobs_search_vector" ON "jobs" USING gin ("search_vector");
--> statement-breakpoint
DROP INDEX IF EXISTS "jobs_title_trgm";
--> statement-breakpoint
CREATE INDEX "jobs_title_trgm" ON "jobs" USING gin (bl_fold("title") gin_trgm_ops);
