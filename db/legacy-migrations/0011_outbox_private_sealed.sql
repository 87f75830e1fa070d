ALTER TABLE "outbox" ADD COLUMN "carries_private" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "private_sealed" text;