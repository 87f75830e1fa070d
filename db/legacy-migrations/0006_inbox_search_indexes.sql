-- Trigram indexes for the inbox's search provider (modules/inbox/contributions.ts): conversations
-- are found by the counterpart's name and by subject with `word_similarity` (`<%`) on the lower-
-- cased text; the expressions here must stay identical to the ones there. pg_trgm comes from 0004.
CREATE INDEX IF NOT EXISTS "inbox_threads_name_trgm" ON "inbox_threads" USING gin (lower("counterpart_name") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "inbox_threads_subject_trgm" ON "inbox_threads" USING gin (lower("subject") gin_trgm_ops);
