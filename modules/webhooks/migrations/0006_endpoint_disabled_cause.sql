ALTER TABLE "webhook_endpoints" ADD COLUMN "disabled_cause" text;--> statement-breakpoint
-- Why each endpoint already off is off, from who did it and the words kept: the firm's switch-offs
-- left no words but a revoked key's; Benchline's were a 410 Gone or 5 days of failures.
UPDATE "webhook_endpoints" SET "disabled_cause" = CASE
	WHEN "disabled_by" = 'benchline' AND "disabled_reason" LIKE '%410%' THEN 'answered_410_gone'
	WHEN "disabled_by" = 'benchline' THEN 'deliveries_failing'
	WHEN "disabled_reason" IS NOT NULL THEN 'api_key_revoked'
	ELSE 'switched_off_by_firm' END
WHERE NOT "enabled";--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_off_says_why" CHECK ("webhook_endpoints"."enabled" = ("webhook_endpoints"."disabled_cause" is null));--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_disabled_cause_valid" CHECK ("webhook_endpoints"."disabled_cause" in ('switched_off_by_firm', 'api_key_revoked', 'answered_410_gone', 'deliveries_failing'));