DROP INDEX "inbox_messages_thread";--> statement-breakpoint
ALTER TABLE "inbox_messages" ADD COLUMN "seq" bigint NOT NULL GENERATED ALWAYS AS IDENTITY (sequence name "inbox_messages_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
CREATE INDEX "inbox_messages_thread" ON "inbox_messages" USING btree ("thread_id","at","seq");