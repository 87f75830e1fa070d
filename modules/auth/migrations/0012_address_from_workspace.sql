ALTER TABLE "users" ADD COLUMN "address_from_workspace" text;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_address_from_workspace_workspaces_id_fk" FOREIGN KEY ("address_from_workspace") REFERENCES "public"."workspaces"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- An account whose password descends from an invitation: the first workspace that invited its address made it
-- (an account a SCIM renamed before this release is left with none: every invitation then asks for its mail).
UPDATE "users" AS u SET "address_from_workspace" = (
	SELECT i."workspace_id" FROM "invitations" AS i WHERE i."email" = u."email" ORDER BY i."created_at", i."id" LIMIT 1
) WHERE u."password_from_invitation";
