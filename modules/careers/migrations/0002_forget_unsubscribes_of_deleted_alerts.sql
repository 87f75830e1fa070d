-- Unsubscribes from job alerts were kept after their alert was deleted (the unsubscribe deletes it),
-- keyed by an id nothing can send to again and in nobody's export: deleted, as deleting an alert now
-- does (alerts.ts, `deleteAlerts`). Digests still queued for such alerts are not sent.
UPDATE "outbox" SET "status" = 'not_sent', "last_error" = 'The candidate unsubscribed from job alerts and other marketing messages', "private_sealed" = NULL
WHERE "recipient_type" = 'job_alert' AND "status" IN ('pending', 'failed')
	AND NOT EXISTS (SELECT 1 FROM "job_alerts" a WHERE a."id" = "outbox"."recipient_id");--> statement-breakpoint
DELETE FROM "outbox_unsubscribes" u
WHERE u."recipient_type" = 'job_alert' AND NOT EXISTS (SELECT 1 FROM "job_alerts" a WHERE a."id" = u."recipient_id");
