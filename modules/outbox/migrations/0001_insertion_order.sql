DROP INDEX "outbox_due";--> statement-breakpoint
DROP INDEX "outbox_workspace_created";--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "seq" bigint NOT NULL GENERATED ALWAYS AS IDENTITY (sequence name "outbox_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
CREATE INDEX "outbox_due" ON "outbox" USING btree ("status","next_attempt_at","seq");--> statement-breakpoint
CREATE INDEX "outbox_workspace_created" ON "outbox" USING btree ("workspace_id","created_at" DESC NULLS LAST,"seq" DESC NULLS LAST);