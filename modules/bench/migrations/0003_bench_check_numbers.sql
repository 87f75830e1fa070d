CREATE TABLE "bench_requirements" (
	"workspace_id" text NOT NULL,
	"requirement" text NOT NULL,
	"ordinal" integer NOT NULL,
	CONSTRAINT "bench_requirements_workspace_id_requirement_pk" PRIMARY KEY("workspace_id","requirement")
);
--> statement-breakpoint
ALTER TABLE "bench_checks" ADD COLUMN "checks" smallint[] DEFAULT '{}'::smallint[] NOT NULL;--> statement-breakpoint
ALTER TABLE "bench_requirements" ADD CONSTRAINT "bench_requirements_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "bench_requirements_ordinal" ON "bench_requirements" USING btree ("workspace_id","ordinal");