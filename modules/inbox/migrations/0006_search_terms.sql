ALTER TABLE "inbox_messages" drop column "search";--> statement-breakpoint
ALTER TABLE "inbox_messages" ADD COLUMN "search" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', bl_terms(coalesce(subject, '') || ' ' || text))) STORED;--> statement-breakpoint
ALTER TABLE "inbox_threads" drop column "search_vector";--> statement-breakpoint
ALTER TABLE "inbox_threads" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('english', bl_terms(counterpart_name)), 'A') || setweight(to_tsvector('english', bl_terms(subject)), 'B')) STORED;--> statement-breakpoint
-- The vectors spell technology names' symbols as letters (bl_terms, db/migrations/0003_search_terms.sql: "C#" is
-- csharp, ".NET" dotnet), as what is asked is: re-adding them recomputes every row, and dropping a column drops its
-- index, made again here.
CREATE INDEX IF NOT EXISTS "inbox_messages_search" ON "inbox_messages" USING gin ("search");--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "inbox_threads_search" ON "inbox_threads" USING gin ("search_vector");
