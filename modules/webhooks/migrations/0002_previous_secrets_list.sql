ALTER TABLE "webhook_endpoints" ADD COLUMN "previous_secrets" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD COLUMN "last_failure_at" timestamp (3) with time zone;--> statement-breakpoint
-- The one previous secret a rotation kept becomes the list's only entry, with its end (the next migration drops the old columns).
UPDATE "webhook_endpoints" SET "previous_secrets" = jsonb_build_array(jsonb_build_object('sealed', "previous_secret_sealed", 'until', to_char("previous_secret_until" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
WHERE "previous_secret_sealed" IS NOT NULL AND "previous_secret_until" IS NOT NULL;--> statement-breakpoint
-- An endpoint failing now keeps its run: its latest failed attempt (a delivery still waiting or failed, with an error) is its last failure.
UPDATE "webhook_endpoints" e SET "last_failure_at" = (
	SELECT max(d."last_attempt_at") FROM "webhook_deliveries" d
	WHERE d."endpoint_id" = e."id" AND d."status" IN ('pending', 'failed') AND d."last_error" IS NOT NULL
)
WHERE e."failing_since" IS NOT NULL;
