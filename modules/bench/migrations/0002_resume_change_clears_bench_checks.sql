-- A changed résumé clears the person's stored bench checks (`bench_checks`, made on the résumé it
-- replaces), in the transaction that changes it, whatever writes it: a stored check is then valid
-- while it exists, and the bench ranking (match.ts) is one statement over the checks, without
-- reading and hashing every bench person's résumé (5,000) on each view. Checks are stored only for
-- the résumé still current when they are written (match.ts, `storeChecks`).
CREATE OR REPLACE FUNCTION bench_checks_resume_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	DELETE FROM bench_checks WHERE candidate_id = NEW.id;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER candidates_resume_changed_bench AFTER UPDATE OF resume_text ON candidates
FOR EACH ROW WHEN (OLD.resume_text IS DISTINCT FROM NEW.resume_text) EXECUTE FUNCTION bench_checks_resume_changed();
