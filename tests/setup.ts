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
// and every other worker a fresh one named after it (`<database>_w<N>`, dropped and made again at each run;
// .ci/run drops them after its pass): a worker's background work and global counts never meet the other's rows.
// A `bun test` a test starts (scripts/new-module/generate.test.ts) inherits the worker's id and database: it
// keeps that database (the marker says it is a worker's already) rather than making a `_w2_w2` nobody drops.
const worker = Number(process.env.BUN_TEST_WORKER_ID ?? 1)
if (process.env.DATABASE_URL && worker > 1 && !process.env.BENCHLINE_TEST_WORKER_DATABASE) {
	const { default: postgres } = await import('postgres')
	const url = new URL(process.env.DATABASE_URL)
	const name = `${decodeURIComponent(url.pathname.slice(1))}_w${worker}`
	const admin = postgres(url.href, { max: 1, onnotice: () => {} })
	try {
		await admin.unsafe(`drop database if exists "${name.replaceAll('"', '""')}" with (force)`)
		await admin.unsafe(`create database "${name.replaceAll('"', '""')}"`)
	} finally {
		await admin.end()
	}
	url.pathname = `/${encodeURIComponent(name)}`
	process.env.DATABASE_URL = url.href
	process.env.BENCHLINE_TEST_WORKER_DATABASE = name
}

// Tests that start servers or browsers need more than bun's 5 s default (also when run as `bun test <file>`).
import { setDefaultTimeout } from 'bun:test'
setDefaultTimeout(30_000)
