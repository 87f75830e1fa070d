DROP INDEX "interviews_workspace_created";--> statement-breakpoint
DROP INDEX "interviews_workspace_status_created";--> statement-breakpoint
ALTER TABLE "interviews" ADD COLUMN "seq" bigint NOT NULL GENERATED ALWAYS AS IDENTITY (sequence name "interviews_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
CREATE INDEX "interviews_workspace_created" ON "interviews" USING btree ("workspace_id","created_at" DESC NULLS LAST,"seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "interviews_workspace_status_created" ON "interviews" USING btree ("workspace_id","status","created_at" DESC NULLS LAST,"seq" DESC NULLS LAST);