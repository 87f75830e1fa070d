/**
 * The process-level reliability tests (server processes, nginx, a private PostgreSQL and Redis)
 * start their own databases: the test run's DATABASE_URL plays no part in them. They run once per
 * CI run, in the `npm test` pass on the embedded database; the PostgreSQL pass would repeat them
 * unchanged and lists them as skipped, naming this reason. RELIABILITY=always runs them in any pass.
 * Missing binaries are errors that say what to install, never a skip.
 */
import { describe } from 'bun:test'

export const runProcessTests = !process.env.DATABASE_URL || process.env.RELIABILITY === 'always'

/** `describe` for process-level tests; skipped, with the reason in its name, in the DATABASE_URL pass. */
export function describeProcesses(name: string, body: () => void) {
	if (runProcessTests) describe(name, body)
	else describe.skip(`${name} (process-level: runs in the embedded-database pass of npm test, or with RELIABILITY=always)`, body)
}
