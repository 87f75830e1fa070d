CREATE TABLE "careers_window_cache" (
	"workspace_id" text NOT NULL,
	"span" smallint NOT NULL,
	"first_day" date NOT NULL,
	"end_day" date NOT NULL,
	"version" integer NOT NULL,
	"built" integer,
	"silent_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "careers_window_cache_workspace_id_span_pk" PRIMARY KEY("workspace_id","span")
);
--> statement-breakpoint
CREATE TABLE "careers_window_totals" (
	"workspace_id" text NOT NULL,
	"span" smallint NOT NULL,
	"version" integer NOT NULL,
	"job_id" text NOT NULL,
	"views" integer NOT NULL,
	"applications" integer NOT NULL,
	"rate" integer,
	CONSTRAINT "careers_window_totals_workspace_id_span_version_job_id_pk" PRIMARY KEY("workspace_id","span","version","job_id")
);
--> statement-breakpoint
CREATE INDEX "careers_window_totals_top" ON "careers_window_totals" USING btree ("workspace_id","span","version","applications","views");--> statement-breakpoint
CREATE INDEX "careers_window_totals_best" ON "careers_window_totals" USING btree ("workspace_id","span","version","rate","applications","views") WHERE rate is not null;