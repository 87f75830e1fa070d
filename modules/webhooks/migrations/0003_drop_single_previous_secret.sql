ALTER TABLE "webhook_endpoints" DROP COLUMN "previous_secret_sealed";--> statement-breakpoint
ALTER TABLE "webhook_endpoints" DROP COLUMN "previous_secret_until";