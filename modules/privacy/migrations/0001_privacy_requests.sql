CREATE TABLE "privacy_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"kind" text NOT NULL,
	"email" text NOT NULL,
	"note" text,
	"token_hash" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp (3) with time zone,
	"due_at" timestamp (3) with time zone,
	"status" text DEFAULT 'unconfirmed' NOT NULL,
	"resolved_at" timestamp (3) with time zone,
	"resolved_by" text,
	"decline_reason" text,
	"candidate_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"download_hash" text,
	"download_expires_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "privacy_requests" ADD CONSTRAINT "privacy_requests_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "privacy_requests_token" ON "privacy_requests" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "privacy_requests_download" ON "privacy_requests" USING btree ("download_hash");--> statement-breakpoint
CREATE INDEX "privacy_requests_workspace" ON "privacy_requests" USING btree ("workspace_id","status","due_at");