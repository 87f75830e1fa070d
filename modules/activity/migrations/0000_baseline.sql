CREATE TABLE "activity" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"actor_user_id" text,
	"actor_vendor_id" text,
	"actor_name" text NOT NULL,
	"credential_kind" text NOT NULL,
	"credential_id" text NOT NULL,
	"credential_name" text NOT NULL,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"detail" jsonb
);
--> statement-breakpoint
CREATE INDEX "activity_workspace_at" ON "activity" USING btree ("workspace_id","at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "activity_target" ON "activity" USING btree ("target_type","target_id");