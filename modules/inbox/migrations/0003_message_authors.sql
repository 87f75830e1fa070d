ALTER TABLE "inbox_messages" ADD COLUMN "written_by" text;--> statement-breakpoint
ALTER TABLE "inbox_threads" ADD COLUMN "last_outside_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "inbox_threads" ADD COLUMN "snippet_by" text;--> statement-breakpoint
-- What came in before: the counterpart's only when it came from the conversation's own address; anything else is from outside.
UPDATE "inbox_messages" m SET "written_by" = CASE WHEN lower(m.from_address) = lower(t.counterpart_address) AND t.counterpart_type IN ('candidate', 'vendor') THEN t.counterpart_type ELSE 'outside' END
FROM "inbox_threads" t WHERE t.id = m.thread_id AND m.direction = 'in';--> statement-breakpoint
UPDATE "inbox_threads" t SET
	"last_inbound_at" = (SELECT max(m.at) FROM "inbox_messages" m WHERE m.thread_id = t.id AND m.direction = 'in' AND lower(m.from_address) = lower(t.counterpart_address)),
	"last_outside_at" = (SELECT max(m.at) FROM "inbox_messages" m WHERE m.thread_id = t.id AND m.direction = 'in' AND lower(m.from_address) <> lower(t.counterpart_address)),
	"snippet_by" = (SELECT coalesce(m.written_by, 'colleague') FROM "inbox_messages" m WHERE m.thread_id = t.id ORDER BY m.at DESC, m.seq DESC LIMIT 1)
WHERE EXISTS (SELECT 1 FROM "inbox_messages" m WHERE m.thread_id = t.id);
