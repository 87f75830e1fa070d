ALTER TABLE "applications" ADD COLUMN "resume_file_name" text;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "resume_mime" text;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "resume_path" text;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "resume_text" text;