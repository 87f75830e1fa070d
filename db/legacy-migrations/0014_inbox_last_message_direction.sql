ALTER TABLE "inbox_threads" ADD COLUMN "last_message_direction" text;--> statement-breakpoint
-- Threads written before this column: the direction of their latest message (the one the snippet
-- was taken from; of two at the very same millisecond, the one with the greater id).
UPDATE "inbox_threads" t SET "last_message_direction" = (SELECT m."direction" FROM "inbox_messages" m WHERE m."thread_id" = t."id" ORDER BY m."at" DESC, m."id" DESC LIMIT 1);
