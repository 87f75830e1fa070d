CREATE TABLE "staffing_lookups" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"removed_at" timestamp (3) with time zone,
	CONSTRAINT "staffing_lookups_kind_valid" CHECK ("staffing_lookups"."kind" in ('vendor', 'implementation_partner', 'client'))
);
--> statement-breakpoint
CREATE TABLE "candidate_documents" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"candidate_id" text NOT NULL,
	"kind" text NOT NULL,
	"file_name" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"storage_key" text NOT NULL,
	"request_id" text,
	"uploaded_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "candidate_documents_kind_valid" CHECK ("candidate_documents"."kind" in ('dl', 'visa', 'i94', 'workAuth'))
);
--> statement-breakpoint
CREATE TABLE "document_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"candidate_id" text NOT NULL,
	"application_id" text,
	"items" text[] NOT NULL,
	"message" text,
	"token_hash" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL,
	"requested_by_user_id" text,
	"requested_by_name" text NOT NULL,
	"upload_count" integer DEFAULT 0 NOT NULL,
	"last_upload_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "vendor_submissions" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"application_id" text NOT NULL,
	"candidate_id" text NOT NULL,
	"job_id" text NOT NULL,
	"vendor_id" text NOT NULL,
	"documents" text[] NOT NULL,
	"document_ids" text[] NOT NULL,
	"note" text,
	"to_address" text NOT NULL,
	"outbox_id" text,
	"submitted_by_user_id" text,
	"submitted_by_name" text NOT NULL,
	"submitted_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "contact_name" text;--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "contact_email" text;--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "contact_phone" text;--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "submission_email" text;--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "submission_portal_url" text;--> statement-breakpoint
ALTER TABLE "vendors" ADD COLUMN "document_rules" jsonb DEFAULT '{"always":[],"byWorkAuthorization":{}}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "staffing_lookups" ADD CONSTRAINT "staffing_lookups_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidate_documents" ADD CONSTRAINT "candidate_documents_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidate_documents" ADD CONSTRAINT "candidate_documents_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "candidate_documents" ADD CONSTRAINT "candidate_documents_request_id_document_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."document_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_requests" ADD CONSTRAINT "document_requests_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_requests" ADD CONSTRAINT "document_requests_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_requests" ADD CONSTRAINT "document_requests_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_requests" ADD CONSTRAINT "document_requests_requested_by_user_id_users_id_fk" FOREIGN KEY ("requested_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendor_submissions" ADD CONSTRAINT "vendor_submissions_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendor_submissions" ADD CONSTRAINT "vendor_submissions_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendor_submissions" ADD CONSTRAINT "vendor_submissions_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendor_submissions" ADD CONSTRAINT "vendor_submissions_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendor_submissions" ADD CONSTRAINT "vendor_submissions_vendor_id_vendors_id_fk" FOREIGN KEY ("vendor_id") REFERENCES "public"."vendors"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendor_submissions" ADD CONSTRAINT "vendor_submissions_outbox_id_outbox_id_fk" FOREIGN KEY ("outbox_id") REFERENCES "public"."outbox"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "vendor_submissions" ADD CONSTRAINT "vendor_submissions_submitted_by_user_id_users_id_fk" FOREIGN KEY ("submitted_by_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "staffing_lookups_live_name" ON "staffing_lookups" USING btree ("workspace_id","kind",lower("name")) WHERE "staffing_lookups"."removed_at" is null;--> statement-breakpoint
CREATE INDEX "staffing_lookups_order" ON "staffing_lookups" USING btree ("workspace_id","kind",lower("name"),"id");--> statement-breakpoint
CREATE INDEX "candidate_documents_candidate" ON "candidate_documents" USING btree ("candidate_id","uploaded_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "document_requests_token" ON "document_requests" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "document_requests_candidate" ON "document_requests" USING btree ("candidate_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "vendor_submissions_application" ON "vendor_submissions" USING btree ("application_id");--> statement-breakpoint
CREATE INDEX "vendor_submissions_vendor" ON "vendor_submissions" USING btree ("vendor_id","submitted_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "vendor_submissions_workspace" ON "vendor_submissions" USING btree ("workspace_id","submitted_at" DESC NULLS LAST);