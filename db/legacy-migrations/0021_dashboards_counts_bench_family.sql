CREATE TABLE "application_daily_counts" (
	"workspace_id" text NOT NULL,
	"day" date NOT NULL,
	"stage_key" text NOT NULL,
	"outcome" text NOT NULL,
	"kind" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "application_daily_counts_workspace_id_day_stage_key_outcome_kind_pk" PRIMARY KEY("workspace_id","day","stage_key","outcome","kind")
);
--> statement-breakpoint
DROP INDEX "applications_workspace_created";--> statement-breakpoint
CREATE INDEX "bench_workspace_family_added" ON "bench_entries" USING btree ("workspace_id","role_family","added_at" DESC NULLS LAST,"id" DESC NULLS LAST);