-- Rows written before this CHECK (imports, scripts) may break it: a closed job without a closing
-- time takes its last change as one (the best record of when it closed); any other job loses a
-- stale closing time. Then the CHECK can hold for every row.
UPDATE "jobs" SET "closed_at" = "updated_at" WHERE "status" = 'Closed' AND "closed_at" IS NULL;--> statement-breakpoint
UPDATE "jobs" SET "closed_at" = NULL WHERE "status" <> 'Closed' AND "closed_at" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_closed_at_iff_closed" CHECK (("jobs"."status" = 'Closed') = ("jobs"."closed_at" is not null));
