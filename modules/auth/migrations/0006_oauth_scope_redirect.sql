ALTER TABLE "oauth_grants" ADD COLUMN "redirect_uri" text;--> statement-breakpoint
ALTER TABLE "oauth_tokens" ADD COLUMN "scope" text;--> statement-breakpoint
-- Grants made before the column: their code (kept a day past its expiry) still says where it was issued for.
UPDATE "oauth_grants" SET "redirect_uri" = "oauth_codes"."redirect_uri" FROM "oauth_codes" WHERE "oauth_codes"."grant_id" = "oauth_grants"."id" AND "oauth_grants"."redirect_uri" IS NULL;
