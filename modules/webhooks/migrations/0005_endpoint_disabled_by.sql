ALTER TABLE "webhook_endpoints" ADD COLUMN "disabled_by" text;--> statement-breakpoint
-- Before this, a person's switch-off left no reason and Benchline's gave one.
UPDATE "webhook_endpoints" SET "disabled_by" = CASE WHEN "disabled_reason" IS NULL THEN 'workspace' ELSE 'benchline' END WHERE NOT "enabled";
