CREATE TABLE "audit_log" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"at" timestamp (3) with time zone NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "audit_log_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"kind" text NOT NULL,
	"action" text NOT NULL,
	"outcome" text NOT NULL,
	"actor_user_id" text,
	"actor_name" text NOT NULL,
	"credential_kind" text NOT NULL,
	"credential_id" text NOT NULL,
	"credential_name" text NOT NULL,
	"record_ids" text[] NOT NULL,
	"criteria" jsonb,
	"job_id" text,
	"address" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "audit_log_workspace_at" ON "audit_log" USING btree ("workspace_id","at" DESC NULLS LAST,"seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_log_records" ON "audit_log" USING gin ("record_ids");--> statement-breakpoint
CREATE INDEX "audit_log_at" ON "audit_log" USING btree ("at");