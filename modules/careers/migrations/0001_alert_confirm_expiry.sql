ALTER TABLE "job_alerts" ADD COLUMN "confirm_expires_at" timestamp (3) with time zone;--> statement-breakpoint
-- Links sent before links expired work for 24 hours from when the alert was asked for.
UPDATE "job_alerts" SET "confirm_expires_at" = "created_at" + interval '24 hours' WHERE "status" = 'pending';
