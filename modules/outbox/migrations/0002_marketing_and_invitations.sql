CREATE TABLE "outbox_unsubscribes" (
	"workspace_id" text NOT NULL,
	"recipient_type" text NOT NULL,
	"recipient_id" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "outbox_unsubscribes_workspace_id_recipient_type_recipient_id_pk" PRIMARY KEY("workspace_id","recipient_type","recipient_id")
);
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "marketing" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "calendar" jsonb;--> statement-breakpoint
ALTER TABLE "outbox_unsubscribes" ADD CONSTRAINT "outbox_unsubscribes_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE no action ON UPDATE no action;