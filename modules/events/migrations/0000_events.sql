CREATE TABLE "event_consumers" (
	"name" text PRIMARY KEY NOT NULL,
	"txid" "xid8" DEFAULT '0'::xid8 NOT NULL,
	"seq" bigint DEFAULT 0 NOT NULL,
	"last_error" text,
	"failing_since" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"seq" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "events_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"id" text NOT NULL,
	"txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	"workspace_id" text NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"actor_kind" text NOT NULL,
	"actor_user_id" text,
	"actor_vendor_id" text,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "events_id_unique" UNIQUE("id")
);
--> statement-breakpoint
CREATE INDEX "events_position" ON "events" USING btree ("txid","seq");--> statement-breakpoint
CREATE INDEX "events_at" ON "events" USING btree ("at");