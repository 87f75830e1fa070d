CREATE TABLE "careers_hourly_sources" (
	"workspace_id" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	"kind" text NOT NULL,
	"shard" smallint NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "careers_hourly_sources_workspace_id_hour_source_kind_shard_pk" PRIMARY KEY("workspace_id","hour","source","kind","shard")
);
--> statement-breakpoint
ALTER TABLE "careers_window_cache" ADD COLUMN "first_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "careers_window_cache" ADD COLUMN "end_at" timestamp with time zone;