CREATE TABLE "password_resets" (
	"id" text PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"used_at" timestamp (3) with time zone
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "password_temporary" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "vendor_api_keys" ADD COLUMN "last_used_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "private_revealable" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "held" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "password_resets" ADD CONSTRAINT "password_resets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "password_resets_hash" ON "password_resets" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "password_resets_user" ON "password_resets" USING btree ("user_id","created_at");--> statement-breakpoint
-- Upload links already in the outbox may be revealed in the dev mailbox (issue 15), like new ones.
UPDATE "outbox" SET "private_revealable" = true WHERE "carries_private" AND "related_type" = 'document_request';--> statement-breakpoint
-- E-mail the worker never tried (attempts = 0) although it waited more than ten minutes was queued
-- while SMTP_URL was unset (with SMTP the worker claims mail within seconds): it stays in the dev
-- mailbox rather than going out by surprise once SMTP_URL is set (an operator can release it).
UPDATE "outbox" SET "held" = true WHERE "channel" = 'email' AND "status" = 'pending' AND "attempts" = 0 AND "created_at" < now() - interval '10 minutes';
