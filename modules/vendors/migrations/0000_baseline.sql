CREATE TABLE "vendor_api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"vendor_id" text NOT NULL,
	"key_hash" text NOT NULL,
	"last_four" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp (3) with time zone,
	"revoked_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "vendors" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"api_access" boolean DEFAULT true NOT NULL,
	"contact_name" text,
	"contact_email" text,
	"contact_phone" text,
	"submission_email" text,
	"submission_portal_url" text,
	"document_rules" jsonb DEFAULT '{"always":[],"byWorkAuthorization":{}}'::jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "vendor_api_keys" ADD CONSTRAINT "vendor_api_keys_vendor_id_vendors_id_fk" FOREIGN KEY ("vendor_id") REFERENCES "public"."vendors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendors" ADD CONSTRAINT "vendors_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "vendor_api_keys_hash" ON "vendor_api_keys" USING btree ("key_hash");--> statement-breakpoint
CREATE INDEX "vendor_api_keys_vendor" ON "vendor_api_keys" USING btree ("vendor_id");--> statement-breakpoint
CREATE INDEX "vendors_workspace" ON "vendors" USING btree ("workspace_id","created_at");