ALTER TABLE "scim_tokens" ADD COLUMN "revoked_reason" text;--> statement-breakpoint
-- A SCIM token acts as an owner of its workspace. One whose creator has since left the workspace, or
-- is no longer an owner, kept working (a removed owner could provision themselves back as Owner with
-- it): it is revoked now, as every removal and role change revokes it from this version on, and
-- /settings/sso tells the remaining owners why.
UPDATE "scim_tokens" t SET "revoked_at" = now(), "revoked_reason" = CASE
	WHEN EXISTS (SELECT 1 FROM "memberships" m WHERE m."workspace_id" = t."workspace_id" AND m."user_id" = t."created_by" AND m."removed_at" IS NULL)
	THEN 'creator_not_owner' ELSE 'creator_left' END
WHERE t."revoked_at" IS NULL AND t."created_by" IS NOT NULL AND NOT EXISTS (
	SELECT 1 FROM "memberships" m
	WHERE m."workspace_id" = t."workspace_id" AND m."user_id" = t."created_by" AND m."removed_at" IS NULL AND m."role" = 'owner'
);
