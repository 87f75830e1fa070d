CREATE TABLE "sso_domain_claims" (
	"workspace_id" text NOT NULL,
	"domain" text NOT NULL,
	"token" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sso_domain_claims_workspace_id_domain_pk" PRIMARY KEY("workspace_id","domain")
);
--> statement-breakpoint
CREATE TABLE "sso_links" (
	"workspace_id" text NOT NULL,
	"user_id" text NOT NULL,
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"linked_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sso_links_workspace_id_user_id_pk" PRIMARY KEY("workspace_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "sso_domains" ADD COLUMN "verified_at" timestamp (3) with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "sso_domains" ADD COLUMN "verified_by" text DEFAULT 'dns' NOT NULL;--> statement-breakpoint
ALTER TABLE "sso_domain_claims" ADD CONSTRAINT "sso_domain_claims_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_links" ADD CONSTRAINT "sso_links_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sso_links" ADD CONSTRAINT "sso_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sso_domain_claims_domain" ON "sso_domain_claims" USING btree ("domain");--> statement-breakpoint
-- Domains listed before verification existed were never proved to be the workspace's: any owner could
-- list another firm's domain. Keeping them verified would keep such a claim attaching that firm's
-- people, and blocking the firm from its own domain. So each becomes an unverified claim, with a random
-- token of its own (the settings page shows its TXT record and a notice), and covers no one until the
-- owner's DNS record is checked, or an operator who knows the claim is genuine runs `sso verify-domain`.
INSERT INTO "sso_domain_claims" ("workspace_id", "domain", "token")
	SELECT "workspace_id", "domain", replace(gen_random_uuid()::text, '-', '') FROM "sso_domains";--> statement-breakpoint
DELETE FROM "sso_domains";
