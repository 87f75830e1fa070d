CREATE TABLE "scheduled_interviewers" (
	"interview_id" text NOT NULL,
	"user_id" text NOT NULL,
	CONSTRAINT "scheduled_interviewers_interview_id_user_id_pk" PRIMARY KEY("interview_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "scheduled_interviews" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"application_id" text NOT NULL,
	"candidate_id" text NOT NULL,
	"job_id" text NOT NULL,
	"organizer_user_id" text,
	"starts_at" timestamp (3) with time zone NOT NULL,
	"duration_minutes" integer NOT NULL,
	"time_zone" text NOT NULL,
	"video_url" text,
	"status" text DEFAULT 'scheduled' NOT NULL,
	"sequence" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "scheduled_interviewers" ADD CONSTRAINT "scheduled_interviewers_interview_id_scheduled_interviews_id_fk" FOREIGN KEY ("interview_id") REFERENCES "public"."scheduled_interviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_interviewers" ADD CONSTRAINT "scheduled_interviewers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_interviews" ADD CONSTRAINT "scheduled_interviews_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_interviews" ADD CONSTRAINT "scheduled_interviews_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scheduled_interviews" ADD CONSTRAINT "scheduled_interviews_organizer_user_id_users_id_fk" FOREIGN KEY ("organizer_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scheduled_interviewers_person" ON "scheduled_interviewers" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "scheduled_interviews_start" ON "scheduled_interviews" USING btree ("workspace_id","starts_at");--> statement-breakpoint
CREATE INDEX "scheduled_interviews_application" ON "scheduled_interviews" USING btree ("application_id");