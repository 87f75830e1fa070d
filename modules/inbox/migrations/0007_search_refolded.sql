ALTER TABLE "inbox_messages" drop column "search";--> statement-breakpoint
ALTER TABLE "inbox_messages" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', bl_terms(coalesce(subject, '') || ' ' || text))) STORED;--> statement-breakpoint
ALTER TABLE "inbox_threads" drop column "search_vector";--> statement-breakpoint
ALTER TABLE "inbox_threads" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', bl_terms(counterpart_name)), 'A') || setweight(to_tsvector('english', bl_terms(subject)), 'B')) STORED;--> statement-breakpoint
-- bl_fold now drops invisible characters and spells ß, æ, ø, ł… as plain letters (db/migrations/0004_fold_letters_invisible.sql),
-- and what was indexed with the old fold must be folded again: re-adding the vectors recomputes every row, and dropping a
-- column drops its index, made again here. The name and subject trigram indexes are on the folded text, made again so
-- that they hold the new fold of every row.
CREATE INDEX IF NOT EXISTS "inbox_messages_search" ON "inbox_messages" USING gin ("search");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "inbox_threads_search" ON "inbox_threads" USING gin ("search_vector");--> statement-breakpoint
DROP INDEX IF EXISTS "inbox_threads_name_trgm";--> statement-breakpoint
CREATE INDEX "inbox_threads_name_trgm" ON "inbox_threads" USING gin (lower(bl_fold("counterpart_name")) gin_trgm_ops);--> statement-breakpoint
DROP INDEX IF EXISTS "inbox_threads_subject_trgm";--> statement-breakpoint
CREATE INDEX "inbox_threads_subject_trgm" ON "inbox_threads" USING gin (lower(bl_fold("subject")) gin_trgm_ops);
