CREATE TABLE "eeo_self_identification" (
	"application_id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"job_id" text NOT NULL,
	"sex" text NOT NULL,
	"ethnicity" text NOT NULL,
	"veteran" text NOT NULL,
	"disability" text NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "eeo_self_identification_job" ON "eeo_self_identification" USING btree ("workspace_id","job_id");