-- The job tools' counts per stage leave out rejected and withdrawn applications (facts.ts), so the
-- index they are read from holds the outcome too and the counts stay an index-only read.
DROP INDEX IF EXISTS "applications_job_counts";
--> statement-breakpoint
CREATE INDEX "applications_job_counts" ON "applications" ("job_id") INCLUDE ("workspace_id", "stage_key", "kind", "outcome") WHERE "archived" = false;
