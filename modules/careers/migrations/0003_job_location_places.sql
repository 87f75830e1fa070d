CREATE TABLE "job_location_places" (
	"location" text PRIMARY KEY NOT NULL,
	"rule" integer NOT NULL,
	"locality" text,
	"region" text,
	"country" text
);
