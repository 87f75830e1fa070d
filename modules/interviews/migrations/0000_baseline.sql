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
	CONSTRAINT "interviews_status_valid" CHECK ("interviews"."status" in ('invited', 'started', 'completed', 'expired')),
	CONSTRAINT "interviews_duration_bounded" CHECK ("interviews"."duration_minutes" between 1 and 1440)
);
--> statement-breakpoint
ALTER TABLE "interview_events" ADD CONSTRAINT "interview_events_interview_id_interviews_id_fk" FOREIGN KEY ("interview_id") REFERENCES "public"."interviews"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interview_questions" ADD CONSTRAINT "interview_questions_interview_id_interviews_id_fk" FOREIGN KEY ("interview_id") REFERENCES "public"."interviews"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interview_views" ADD CONSTRAINT "interview_views_interview_id_interviews_id_fk" FOREIGN KEY ("interview_id") REFERENCES "public"."interviews"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interview_views" ADD CONSTRAINT "interview_views_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interviews" ADD CONSTRAINT "interviews_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interviews" ADD CONSTRAINT "interviews_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interviews" ADD CONSTRAINT "interviews_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interviews" ADD CONSTRAINT "interviews_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interviews" ADD CONSTRAINT "interviews_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "interview_questions_position" ON "interview_questions" USING btree ("interview_id","position");--> statement-breakpoint
CREATE INDEX "interviews_workspace_created" ON "interviews" USING btree ("workspace_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "interviews_workspace_status_created" ON "interviews" USING btree ("workspace_id","status","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "interviews_open_deadline" ON "interviews" USING btree ("deadline_at") WHERE status in ('invited', 'started');--> statement-breakpoint
CREATE INDEX "interviews_workspace_scheduled" ON "interviews" USING btree ("workspace_id","scheduled_at");--> statement-breakpoint
CREATE INDEX "interviews_workspace_completed" ON "interviews" USING btree ("workspace_id","completed_at");--> statement-breakpoint
CREATE INDEX "interviews_application" ON "interviews" USING btree ("application_id");--> statement-breakpoint
CREATE INDEX "interviews_job" ON "interviews" USING btree ("job_id");