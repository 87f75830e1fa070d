ALTER TABLE "inbox_messages" ADD COLUMN "sender_check" text;--> statement-breakpoint
ALTER TABLE "inbox_messages" ADD COLUMN "sender_check_reason" text;--> statement-breakpoint
ALTER TABLE "inbox_messages" ADD COLUMN "automatic" text;--> statement-breakpoint
ALTER TABLE "inbox_messages" ADD COLUMN "bounced_at" timestamp (3) with time zone;