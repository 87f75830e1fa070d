ALTER TABLE "document_requests" ADD COLUMN "revoked_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "document_requests" ADD COLUMN "replaced_by" text;