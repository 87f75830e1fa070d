ALTER TABLE "users" ADD COLUMN "password_from_invitation" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- An account still on its invitation's temporary password: the one its person chooses next descends from it.
-- (A temporary password already replaced before this release cannot be told apart from one the person chose.)
UPDATE "users" SET "password_from_invitation" = true WHERE "password_temporary";
