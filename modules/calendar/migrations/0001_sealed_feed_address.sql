ALTER TABLE "calendar_feeds" ALTER COLUMN "url" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD COLUMN "url_sealed" text;--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD COLUMN "url_hash" text;--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD COLUMN "url_hint" text;