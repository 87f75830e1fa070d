CREATE TABLE "applicant_flow" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"job_id" text NOT NULL,
	"kind" text NOT NULL,
	"applied_at" timestamp (3) with time zone NOT NULL,
	"stage" text NOT NULL,
	"outcome" text,
	"stage_changed_at" timestamp (3) with time zone NOT NULL,
	"stages" jsonb NOT NULL,
	"erased_at" timestamp (3) with time zone NOT NULL,
	"keep_until" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "privacy_settings" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"federal_contractor" boolean DEFAULT false NOT NULL,
	"hold_years" smallint DEFAULT 2 NOT NULL,
	"inactive_months" integer,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "applicant_flow" ADD CONSTRAINT "applicant_flow_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "privacy_settings" ADD CONSTRAINT "privacy_settings_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "applicant_flow_keep_until" ON "applicant_flow" USING btree ("keep_until");--> statement-breakpoint
CREATE INDEX "applicant_flow_workspace" ON "applicant_flow" USING btree ("workspace_id","job_id");