CREATE TABLE "indexing_notices" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"target" text NOT NULL,
	"url" text NOT NULL,
	"action" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "indexing_notices_target_url" ON "indexing_notices" USING btree ("target","url");--> statement-breakpoint
CREATE INDEX "indexing_notices_due" ON "indexing_notices" USING btree ("next_attempt_at");