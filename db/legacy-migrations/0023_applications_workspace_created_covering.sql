-- applications_workspace_created again (0019 dropped drizzle's version, which cannot say INCLUDE),
-- with the same key, so the workspace's applications newest first (list_applications, keyset paging)
-- read it as before; and with kind, stage_key and outcome in it, so the analytics funnel's counts of
-- the two partial days at a period's ends (modules/candidates/funnel.ts) are an index-only scan:
-- 3 ms instead of 20-120 ms at the 1,000,000-candidate scale on the 2-vCPU machine under load.
-- Building it on a large workspace outlasts the app's 15 s statement bound, as in 0008.
SET LOCAL statement_timeout = 0;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "applications_workspace_created" ON "applications" ("workspace_id", "created_at" DESC NULLS LAST, "id" DESC NULLS LAST) INCLUDE ("kind", "stage_key", "outcome");
--> statement-breakpoint
SET LOCAL statement_timeout TO DEFAULT;
