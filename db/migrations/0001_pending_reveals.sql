CREATE TABLE "pending_reveals" (
	"id" text PRIMARY KEY NOT NULL,
	"expires_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "pending_reveals_expires" ON "pending_reveals" USING btree ("expires_at");