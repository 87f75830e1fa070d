ALTER TABLE "careers_window_cache" ALTER COLUMN "first_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "careers_window_cache" ALTER COLUMN "end_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "careers_window_cache" DROP COLUMN "first_day";--> statement-breakpoint
ALTER TABLE "careers_window_cache" DROP COLUMN "end_day";