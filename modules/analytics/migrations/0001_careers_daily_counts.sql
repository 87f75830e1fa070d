CREATE TABLE "careers_daily_jobs" (
	"workspace_id" text NOT NULL,
	"day" date NOT NULL,
	"job_id" text NOT NULL,
	"shard" smallint NOT NULL,
	"views" integer NOT NULL,
	"applications" integer NOT NULL,
	CONSTRAINT "careers_daily_jobs_workspace_id_day_job_id_shard_pk" PRIMARY KEY("workspace_id","day","job_id","shard")
);
--> statement-breakpoint
CREATE TABLE "careers_daily_sources" (
	"workspace_id" text NOT NULL,
	"day" date NOT NULL,
	"source" text NOT NULL,
	"kind" text NOT NULL,
	"shard" smallint NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "careers_daily_sources_workspace_id_day_source_kind_shard_pk" PRIMARY KEY("workspace_id","day","source","kind","shard")
);
