// Preloaded once per `bun test` process (bunfig.toml).
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

process.env.LOG_LEVEL ??= 'warn'
process.env.DEMO = 'off'
// Passwords hashed at a low cost (modules/auth/password-hash.ts): the suites make thousands of people, and
// at argon2id's full cost those hashes were most of a pass's time on two cores. password-hash.test.ts
// checks the full cost, and sign-in with a full-cost hash, on its own.
process.env.PASSWORD_HASH_FAST ??= 'on'
// Files the tests store (résumés, documents) go to a throwaway folder, never ./data.
process.env.DATA_DIR = mkdtempSync(join(tmpdir(), 'benchline-test-'))

// `npm test` runs the files in two worker processes (package.json: `--parallel=2 --no-isolate`), each one
// process with its own shared database as before. On PostgreSQL, worker 1 uses DATABASE_URL's database
// and every other worker a fresh one named after it (tests/databases.ts; .ci/run drops them after its
// pass): a worker's background work and global counts never meet the other's rows.
import { freshDatabase, workerDatabaseName } from './databases.ts'

const workerDatabase = workerDatabaseName(process.env)
if (workerDatabase) {
	process.env.DATABASE_URL = await freshDatabase(process.env.DATABASE_URL!, workerDatabase)
	process.env.BENCHLINE_TEST_WORKER_DATABASE = workerDatabase
}

// When a file ends, what it built for itself is closed (tests/file-resources.ts): the next file of the
// worker runs in the same process. bun runs this after each file a `--parallel` worker runs (as
// `npm test` does; tests/harness/file-end.test.ts), and once at the end of a plain one-process `bun test`.
import { afterAll } from 'bun:test'
import { closeFileResources } from './file-resources.ts'
afterAll(closeFileResources)

// Tests that start servers or browsers need more than bun's 5 s default (also when run as `bun test <file>`).
import { setDefaultTimeout } from 'bun:test'
setDefaultTimeout(30_000)
