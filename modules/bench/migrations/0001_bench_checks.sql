CREATE TABLE "bench_checks" (
	"candidate_id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"resume_hash" text NOT NULL,
	"basis" text NOT NULL,
	"met" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
-- Rows are kept uncompressed up to a page (8160 bytes; the default compresses from about 2 KB): the
-- ranking reads several requirements of every bench person's `met`, and each read of a compressed
-- value decompresses it again (30,000 reads: 360 ms compressed, 74 ms not; bench/README.md).
ALTER TABLE "bench_checks" SET (toast_tuple_target = 8160);--> statement-breakpoint
ALTER TABLE "bench_checks" ADD CONSTRAINT "bench_checks_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bench_checks" ADD CONSTRAINT "bench_checks_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;