ALTER TABLE "outbox" ADD COLUMN "recipient_type" text;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "recipient_id" text;