-- A changed résumé marks the candidate's applications' résumé checks as made on another résumé (their
-- `resumeHash` removed), in the transaction that changes it, whatever writes it: a job-wide re-check
-- (recheck.ts) then finds the stale checks from the application rows alone, without reading and
-- hashing every applicant's résumé (5,000 on a busy job).
CREATE OR REPLACE FUNCTION applications_resume_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	UPDATE applications SET resume_check = resume_check - 'resumeHash'
	WHERE candidate_id = NEW.id AND resume_check ? 'resumeHash';
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER candidates_resume_changed AFTER UPDATE OF resume_text ON candidates
FOR EACH ROW WHEN (OLD.resume_text IS DISTINCT FROM NEW.resume_text) EXECUTE FUNCTION applications_resume_changed();
