CREATE TABLE "staffing_lookups" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"removed_at" timestamp (3) with time zone,
	CONSTRAINT "staffing_lookups_kind_valid" CHECK ("staffing_lookups"."kind" in ('vendor', 'implementation_partner', 'client'))
);
--> statement-breakpoint
ALTER TABLE "staffing_lookups" ADD CONSTRAINT "staffing_lookups_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "staffing_lookups_live_name" ON "staffing_lookups" USING btree ("workspace_id","kind",lower("name")) WHERE "staffing_lookups"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "staffing_lookups_order" ON "staffing_lookups" USING btree ("workspace_id","kind",lower("name"),"id");