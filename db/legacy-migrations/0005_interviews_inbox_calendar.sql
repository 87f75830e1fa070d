CREATE TABLE "todos" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"assignee_user_id" text NOT NULL,
	"created_by_user_id" text,
	"candidate_id" text,
	"application_id" text,
	"job_id" text,
	"title" text NOT NULL,
	"notes" text,
	"due_at" timestamp (3) with time zone,
	"done_at" timestamp (3) with time zone,
	"source" text DEFAULT 'person' NOT NULL,
	"source_ref" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "interview_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"interview_id" text NOT NULL,
	"type" text NOT NULL,
	"received_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "interview_questions" (
	"id" text PRIMARY KEY NOT NULL,
	"interview_id" text NOT NULL,
	"position" integer NOT NULL,
	"prompt" text NOT NULL,
	"competency" text,
	"transcript" text,
	"score" integer,
	"duration_seconds" integer
);
--> statement-breakpoint
CREATE TABLE "interview_views" (
	"interview_id" text NOT NULL,
	"user_id" text NOT NULL,
	"seen_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "interview_views_interview_id_user_id_pk" PRIMARY KEY("interview_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "interviews" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"candidate_id" text NOT NULL,
	"job_id" text NOT NULL,
	"application_id" text,
	"owner_user_id" text,
	"status" text DEFAULT 'invited' NOT NULL,
	"scheduled_at" timestamp (3) with time zone NOT NULL,
	"duration_minutes" integer DEFAULT 30 NOT NULL,
	"deadline_at" timestamp (3) with time zone NOT NULL,
	"invited_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp (3) with time zone,
	"completed_at" timestamp (3) with time zone,
	"expired_at" timestamp (3) with time zone,
	"overall_score" integer,
	"verdict" text,
	"summary" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "interviews_status_valid" CHECK ("interviews"."status" in ('invited', 'started', 'completed', 'expired'))
);
--> statement-breakpoint
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
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "calendar_busy" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"user_id" text NOT NULL,
	"starts_at" timestamp (3) with time zone NOT NULL,
	"ends_at" timestamp (3) with time zone NOT NULL,
	"all_day" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "calendar_feeds" (
	"workspace_id" text NOT NULL,
	"user_id" text NOT NULL,
	"url" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"last_error" text,
	"last_fetched_at" timestamp (3) with time zone,
	"next_refresh_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"busy_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calendar_feeds_workspace_id_user_id_pk" PRIMARY KEY("workspace_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "careers_events" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"job_id" text NOT NULL,
	"kind" text NOT NULL,
	"source" text NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "careers_events_kind_valid" CHECK ("careers_events"."kind" in ('view', 'application'))
);
--> statement-breakpoint
CREATE TABLE "saved_searches" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"user_id" text NOT NULL,
	"list" text NOT NULL,
	"name" text NOT NULL,
	"query" text DEFAULT '' NOT NULL,
	"filters" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "todos" ADD CONSTRAINT "todos_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "todos" ADD CONSTRAINT "todos_assignee_user_id_users_id_fk" FOREIGN KEY ("assignee_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "todos" ADD CONSTRAINT "todos_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "todos" ADD CONSTRAINT "todos_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "todos" ADD CONSTRAINT "todos_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "todos" ADD CONSTRAINT "todos_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interview_events" ADD CONSTRAINT "interview_events_interview_id_interviews_id_fk" FOREIGN KEY ("interview_id") REFERENCES "public"."interviews"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interview_questions" ADD CONSTRAINT "interview_questions_interview_id_interviews_id_fk" FOREIGN KEY ("interview_id") REFERENCES "public"."interviews"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interview_views" ADD CONSTRAINT "interview_views_interview_id_interviews_id_fk" FOREIGN KEY ("interview_id") REFERENCES "public"."interviews"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interview_views" ADD CONSTRAINT "interview_views_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interviews" ADD CONSTRAINT "interviews_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interviews" ADD CONSTRAINT "interviews_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interviews" ADD CONSTRAINT "interviews_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interviews" ADD CONSTRAINT "interviews_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interviews" ADD CONSTRAINT "interviews_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_messages" ADD CONSTRAINT "inbox_messages_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_messages" ADD CONSTRAINT "inbox_messages_thread_id_inbox_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."inbox_threads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_messages" ADD CONSTRAINT "inbox_messages_sent_by_user_id_users_id_fk" FOREIGN KEY ("sent_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_states" ADD CONSTRAINT "inbox_states_thread_id_inbox_threads_id_fk" FOREIGN KEY ("thread_id") REFERENCES "public"."inbox_threads"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_states" ADD CONSTRAINT "inbox_states_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_threads" ADD CONSTRAINT "inbox_threads_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_threads" ADD CONSTRAINT "inbox_threads_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbox_threads" ADD CONSTRAINT "inbox_threads_vendor_id_vendors_id_fk" FOREIGN KEY ("vendor_id") REFERENCES "public"."vendors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_busy" ADD CONSTRAINT "calendar_busy_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_busy" ADD CONSTRAINT "calendar_busy_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "careers_events" ADD CONSTRAINT "careers_events_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "careers_events" ADD CONSTRAINT "careers_events_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_searches" ADD CONSTRAINT "saved_searches_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_searches" ADD CONSTRAINT "saved_searches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "todos_assignee" ON "todos" USING btree ("workspace_id","assignee_user_id","created_at");--> statement-breakpoint
CREATE INDEX "todos_candidate" ON "todos" USING btree ("candidate_id","created_at");--> statement-breakpoint
CREATE INDEX "todos_due" ON "todos" USING btree ("workspace_id","due_at");--> statement-breakpoint
CREATE UNIQUE INDEX "todos_source_ref" ON "todos" USING btree ("workspace_id","source","source_ref","assignee_user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "interview_questions_position" ON "interview_questions" USING btree ("interview_id","position");--> statement-breakpoint
CREATE INDEX "interviews_workspace_created" ON "interviews" USING btree ("workspace_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "interviews_workspace_status_created" ON "interviews" USING btree ("workspace_id","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "interviews_open_deadline" ON "interviews" USING btree ("deadline_at") WHERE status in ('invited', 'started');--> statement-breakpoint
CREATE INDEX "interviews_workspace_scheduled" ON "interviews" USING btree ("workspace_id","scheduled_at");--> statement-breakpoint
CREATE INDEX "interviews_workspace_completed" ON "interviews" USING btree ("workspace_id","completed_at");--> statement-breakpoint
CREATE INDEX "interviews_application" ON "interviews" USING btree ("application_id");--> statement-breakpoint
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
CREATE INDEX "calendar_busy_person" ON "calendar_busy" USING btree ("workspace_id","user_id","starts_at");--> statement-breakpoint
CREATE INDEX "calendar_busy_workspace" ON "calendar_busy" USING btree ("workspace_id","starts_at");--> statement-breakpoint
CREATE INDEX "calendar_feeds_due" ON "calendar_feeds" USING btree ("next_refresh_at");--> statement-breakpoint
CREATE INDEX "careers_events_workspace_at" ON "careers_events" USING btree ("workspace_id","at");--> statement-breakpoint
CREATE INDEX "careers_events_job_at" ON "careers_events" USING btree ("job_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "saved_searches_name" ON "saved_searches" USING btree ("workspace_id","user_id","list",lower("name"));--> statement-breakpoint
CREATE INDEX "saved_searches_person" ON "saved_searches" USING btree ("workspace_id","user_id","list");