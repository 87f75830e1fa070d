CREATE TABLE "inbox_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"thread_id" text NOT NULL,
	"direction" text NOT NULL,
	"channel" text NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"subject" text,
	"text" text NOT NULL,
	"message_id" text,
	"in_reply_to" text,
	"outbox_id" text,
	"related_type" text,
	"related_id" text,
	"sent_by_user_id" text,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (to_tsvector('english', coalesce(subject, '') || ' ' || text)) STORED
);
--> statement-breakpoint
CREATE TABLE "inbox_states" (
	"thread_id" text NOT NULL,
	"user_id" text NOT NULL,
	"read_at" timestamp (3) with time zone,
	"starred" boolean DEFAULT false NOT NULL,
	CONSTRAINT "inbox_states_thread_id_user_id_pk" PRIMARY KEY("thread_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "inbox_threads" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"counterpart_key" text NOT NULL,
	"counterpart_type" text NOT NULL,
	"candidate_id" text,
	"vendor_id" text,
	"counterpart_name" text NOT NULL,
	"counterpart_address" text NOT NULL,
	"subject" text NOT NULL,
	"message_count" integer DEFAULT 0 NOT NULL,
	"last_message_at" timestamp (3) with time zone NOT NULL,
	"last_inbound_at" timestamp (3) with time zone,
	"snippet" text DEFAULT '' NOT NULL,
	"last_message_direction" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "inbox_messages" ADD CONSTRAINT "inbox_messages_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_messages" ADD CONSTRAINT "inbox_messages_thread_id_inbox_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."inbox_threads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_messages" ADD CONSTRAINT "inbox_messages_sent_by_user_id_users_id_fk" FOREIGN KEY ("sent_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_states" ADD CONSTRAINT "inbox_states_thread_id_inbox_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."inbox_threads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_states" ADD CONSTRAINT "inbox_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_threads" ADD CONSTRAINT "inbox_threads_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_threads" ADD CONSTRAINT "inbox_threads_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_threads" ADD CONSTRAINT "inbox_threads_vendor_id_vendors_id_fk" FOREIGN KEY ("vendor_id") REFERENCES "public"."vendors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inbox_messages_thread" ON "inbox_messages" USING btree ("thread_id","at","id");--> statement-breakpoint
CREATE UNIQUE INDEX "inbox_messages_message_id" ON "inbox_messages" USING btree ("workspace_id","message_id");--> statement-breakpoint
CREATE INDEX "inbox_messages_message_id_any" ON "inbox_messages" USING btree ("message_id");--> statement-breakpoint
CREATE UNIQUE INDEX "inbox_messages_outbox" ON "inbox_messages" USING btree ("outbox_id");--> statement-breakpoint
CREATE INDEX "inbox_messages_synced" ON "inbox_messages" USING btree ("workspace_id","at") WHERE outbox_id is not null;--> statement-breakpoint
CREATE INDEX "inbox_messages_related" ON "inbox_messages" USING btree ("related_type","related_id");--> statement-breakpoint
CREATE INDEX "inbox_messages_search" ON "inbox_messages" USING gin ("search");--> statement-breakpoint
CREATE INDEX "inbox_states_starred" ON "inbox_states" USING btree ("user_id") WHERE starred;--> statement-breakpoint
CREATE UNIQUE INDEX "inbox_threads_counterpart" ON "inbox_threads" USING btree ("workspace_id","counterpart_key");--> statement-breakpoint
CREATE INDEX "inbox_threads_recent" ON "inbox_threads" USING btree ("workspace_id","last_message_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "inbox_threads_candidate" ON "inbox_threads" USING btree ("candidate_id");--> statement-breakpoint
-- Below: what drizzle-kit does not model. Trigram indexes for the inbox's search provider
-- (modules/inbox/contributions.ts): conversations are found by the counterpart's name and by subject
-- with `word_similarity` (`<%`) on the lower-cased text; the expressions must stay identical to the ones there.
CREATE INDEX "inbox_threads_name_trgm" ON "inbox_threads" USING gin (lower("counterpart_name") gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "inbox_threads_subject_trgm" ON "inbox_threads" USING gin (lower("subject") gin_trgm_ops);
