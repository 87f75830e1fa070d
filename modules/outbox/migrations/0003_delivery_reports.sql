ALTER TABLE "outbox" ADD COLUMN "bounced_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "bounce_reason" text;