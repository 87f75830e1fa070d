ALTER TABLE "scim_users" ADD COLUMN "given_name" text;--> statement-breakpoint
ALTER TABLE "scim_users" ADD COLUMN "family_name" text;