CREATE TABLE "job_alerts" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"email" text NOT NULL,
	"q" text DEFAULT '' NOT NULL,
	"location" text DEFAULT '' NOT NULL,
	"remote" boolean DEFAULT false NOT NULL,
	"type" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"confirm_hash" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp (3) with time zone,
	"digested_through" timestamp (3) with time zone,
	"last_sent_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "job_alerts" ADD CONSTRAINT "job_alerts_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "job_alerts_confirm_hash" ON "job_alerts" USING btree ("confirm_hash");--> statement-breakpoint
CREATE INDEX "job_alerts_workspace_email" ON "job_alerts" USING btree ("workspace_id","email");--> statement-breakpoint
CREATE INDEX "job_alerts_due" ON "job_alerts" USING btree ("status","last_sent_at");