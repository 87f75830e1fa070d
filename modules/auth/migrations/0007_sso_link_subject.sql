-- One provider account is one person in a workspace. Links written since 0005 may already join one
-- account (issuer and sub) to several people (an address changed at the provider opened another
-- person's account): the earliest link stays, the others are forgotten, and those people are linked
-- again at their next sign-in, by their own provider account.
DELETE FROM "sso_links" AS "later" USING "sso_links" AS "first"
	WHERE "later"."workspace_id" = "first"."workspace_id" AND "later"."issuer" = "first"."issuer" AND "later"."subject" = "first"."subject"
	AND ("later"."linked_at", "later"."user_id") > ("first"."linked_at", "first"."user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sso_links_subject" ON "sso_links" USING btree ("workspace_id","issuer","subject");
