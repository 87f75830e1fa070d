CREATE TABLE "server_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- Below: what drizzle-kit does not model, shared by several modules (hence the core's, applied first).
-- Trigram operator classes, for the search indexes of jobs, candidates and inbox.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
-- array_to_string is only STABLE; this wrapper is safe to mark IMMUTABLE for text[] and lets the
-- generated columns and expression indexes of jobs and candidates use it.
CREATE OR REPLACE FUNCTION bl_words(text[]) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT coalesce(array_to_string($1, ' '), '') $$;
