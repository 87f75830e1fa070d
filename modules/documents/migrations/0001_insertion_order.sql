DROP INDEX "candidate_documents_candidate";--> statement-breakpoint
DROP INDEX "document_requests_candidate";--> statement-breakpoint
ALTER TABLE "candidate_documents" ADD COLUMN "seq" bigint NOT NULL GENERATED ALWAYS AS IDENTITY (sequence name "candidate_documents_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
ALTER TABLE "document_requests" ADD COLUMN "seq" bigint NOT NULL GENERATED ALWAYS AS IDENTITY (sequence name "document_requests_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1);--> statement-breakpoint
CREATE INDEX "candidate_documents_candidate" ON "candidate_documents" USING btree ("candidate_id","uploaded_at" DESC NULLS LAST,"seq" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "document_requests_candidate" ON "document_requests" USING btree ("candidate_id","created_at" DESC NULLS LAST,"seq" DESC NULLS LAST);