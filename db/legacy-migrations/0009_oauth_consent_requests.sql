CREATE TABLE "oauth_consent_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"client_id" text NOT NULL,
	"request" text NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "oauth_consent_requests" ADD CONSTRAINT "oauth_consent_requests_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_consent_requests" ADD CONSTRAINT "oauth_consent_requests_client_id_oauth_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."oauth_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "oauth_consent_requests_session" ON "oauth_consent_requests" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "oauth_consent_requests_client" ON "oauth_consent_requests" USING btree ("client_id");