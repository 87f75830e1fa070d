/**
 * Test harness: one database per test process (in-memory PGlite, or the PostgreSQL server named by
 * DATABASE_URL), one app, and a fresh workspace per test so tests never see each other's data.
 */
import { appendFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { ConfigError, loadConfig } from '../core/config.ts'
import type { AppDeps } from '../core/deps.ts'
import { sql } from 'drizzle-orm'
import { pgTable, text } from 'drizzle-orm/pg-core'
import { createLogger } from '../core/log.ts'
import { closeDeps, createApp, createDeps, modules } from '../core/main.ts'
import { openDatabase, openMemoryDatabase, type Database } from '../db/client.ts'
import { dropDatabase, freshDatabase } from './databases.ts'
import { closeWhenFileEnds } from './file-resources.ts'
import { addPerson, createWorkspace, operatorActor } from '../modules/auth/index.ts'
import { createVendor } from '../modules/vendors/index.ts'

/** Every log line written during the run. `.ci/run` greps the file for secrets after the run. */
export const logLines: string[] = []
const LOG_FILE = process.env.BENCHLINE_TEST_LOG ?? `${import.meta.dir}/../.tmp/test-log.jsonl`
mkdirSync(dirname(LOG_FILE), { recursive: true })
const recordLog = (line: string) => {
	logLines.push(line)
	appendFileSync(LOG_FILE, line + '\n')
}

/**
 * Rate limits count in fixed one-minute windows of the real clock (`core/http/rate-limit.ts`): a burst
 * that straddles a window's edge is split in two and never reaches the limit, so a test that expects
 * the refusal starts its burst well inside a window.
 */
export async function awayFromMinuteEdge() {
	const into = Date.now() % 60_000
	if (into > 52_000) await Bun.sleep(60_000 - into + 50)
}

/** A clock tests can move forward; it starts at real time. */
export const clock = {
	offsetMs: 0,
	now: () => new Date(Date.now() + clock.offsetMs),
	advance(ms: number) {
		clock.offsetMs += ms
	},
	reset() {
		clock.offsetMs = 0
	},
}

let depsPromise: Promise<AppDeps> | undefined
let appInstance: ReturnType<typeof createApp> | undefined

export const usingPostgres = () => Boolean(process.env.DATABASE_URL)

async function openTestDatabase(): Promise<Database> {
	const config = loadConfig()
	const db = config.databaseUrl ? await openDatabase(config) : await openMemoryDatabase()
	await db.migrate(modules)
	return db
}

/** How long what a helper builds lives: until the test file ends (tests/file-resources.ts), or the whole run (a cache). */
type Lives = 'this file' | 'whole run'

/**
 * The shared dependencies, or (given settings) new ones on the shared database, closed when the test
 * file ends; `lives: 'whole run'` keeps them for a cache that outlives the file (tests/portal.ts).
 */
export function testDeps(overrides: Record<string, string> = {}, lives: Lives = 'this file'): Promise<AppDeps> {
	if (Object.keys(overrides).length) return depsThatLive(overrides, lives)
	depsPromise ??= buildDeps({})
	return depsPromise
}

async function depsThatLive(overrides: Record<string, string>, lives: Lives): Promise<AppDeps> {
	const deps = await buildDeps(overrides)
	if (lives === 'this file') closeWhenFileEnds(() => closeDeps(deps))
	return deps
}

async function buildDeps(overrides: Record<string, string>): Promise<AppDeps> {
	// Limits high enough for a whole run (tests share one address, "unknown", in-process); the tests of
	// each limit set their own.
	const config = loadConfig({
		...process.env,
		BASE_URL: 'http://localhost:3000',
		RATE_LIMIT_PER_MINUTE: '100000',
		FAILED_CREDENTIALS_PER_ADDRESS_PER_MINUTE: '100000',
		REDIS_URL: '',
		LOG_LEVEL: 'debug',
		...overrides,
	})
	// Everything is logged (to the run's log file) so the secret scan sees every line.
	const log = createLogger('debug', recordLog)
	const database = await sharedDatabase()
	return createDeps({ config, log, database, now: clock.now })
}

let sharedDb: Promise<Database> | undefined
export const sharedDatabase = () => (sharedDb ??= openTestDatabase())

export async function testApp() {
	const deps = await testDeps()
	appInstance ??= createApp(deps)
	return { app: appInstance, deps }
}

let counter = 0
export const unique = (prefix = 't') => `${prefix}${Date.now().toString(36)}${(counter++).toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`

export interface TestWorkspace {
	id: string
	slug: string
	name: string
}

export async function newWorkspace(deps?: AppDeps): Promise<TestWorkspace> {
	deps ??= await testDeps()
	return createWorkspace(deps, { slug: unique('ws'), name: 'Test Staffing' })
}

export async function newVendor(ws: TestWorkspace, name = 'Test Vendor', deps?: AppDeps) {
	deps ??= await testDeps()
	return createVendor(deps, operatorActor(ws), { name })
}

export async function newPerson(ws: TestWorkspace, role: string, options: { grants?: string[]; password?: string } = {}, deps?: AppDeps) {
	deps ??= await testDeps()
	const email = `${unique('p')}@example.test`
	const password = options.password ?? 'correct horse battery'
	const { userId } = await addPerson(deps, operatorActor(ws), ws, { email, name: `${role} person`, role, password, grants: options.grants })
	return { userId, email, password, role }
}

export interface CallOptions {
	key?: string
	body?: unknown
	/** Raw body text (sent as is). */
	raw?: string | Uint8Array | ReadableStream
	headers?: Record<string, string>
}

/**
 * The path of a job's careers page from the address a tool gave (`…/jobs/job_…`, which the careers
 * site answers with a redirect to the page's own address) or from the page's own address.
 */
export async function careersPagePath(url: string, deps?: AppDeps): Promise<string> {
	const path = new URL(url).pathname
	const [, workspace, id] = /^\/careers\/([^/]+)\/jobs\/(job_[a-z0-9]+)$/.exec(path) ?? []
	if (!id) return path
	const [job] = await (deps ?? (await testDeps())).database.rows<{ slug: string }>(sql`select slug from jobs where id = ${id}`)
	return `/careers/${workspace}/jobs/${job!.slug}`
}

/** One request through the app in-process. */
export async function call(method: string, path: string, options: CallOptions = {}) {
	return callOn((await testApp()).app, method, path, options)
}

/** One request through a given app in-process (e.g. an app built with other settings). */
export async function callOn(app: { handle(request: Request): Promise<Response> }, method: string, path: string, options: CallOptions = {}) {
	const headers: Record<string, string> = { ...options.headers }
	if (options.key) headers.authorization = `Bearer ${options.key}`
	let body: BodyInit | undefined
	if (options.body !== undefined) {
		headers['content-type'] ??= 'application/json'
		body = JSON.stringify(options.body)
	} else if (options.raw !== undefined) body = options.raw as BodyInit
	const res = await app.handle(new Request(`http://localhost${path}`, { method, headers, body, duplex: 'half' } as RequestInit))
	const text = await res.text()
	let json: any
	try {
		json = JSON.parse(text)
	} catch {
		json = undefined
	}
	return { status: res.status, headers: res.headers, text, json }
}

/**
 * The app on a real loopback HTTP port (for real clients: MCP SDKs, browsers, OAuth clients).
 * Its BASE_URL is the served address, so issuer and resource checks of real clients hold.
 */
let served: Promise<{ url: string; deps: AppDeps }> | undefined
export function serveApp(): Promise<{ url: string; deps: AppDeps }> {
	served ??= serveOn({}, 'whole run')
	return served
}

/**
 * Another app on its own loopback port, with settings of its own (e.g. `SSO_ALLOW_HTTP` for a test
 * provider on http://): as `serveApp`, but not shared.
 */
export function serveAppWith(overrides: Record<string, string> = {}): Promise<{ url: string; deps: AppDeps }> {
	return serveOn(overrides, 'this file')
}

async function serveOn(overrides: Record<string, string>, lives: Lives): Promise<{ url: string; deps: AppDeps }> {
	let handle: (r: Request) => Response | Promise<Response> = () => new Response('starting', { status: 503 })
	// In front of the app as nginx is in production: it says who the client is (X-Forwarded-For),
	// so browsers are counted apart from in-process requests, which have no address ("unknown")
	// and whose failed sign-ins would otherwise slow browsers down.
	const server = Bun.serve({
		port: 0,
		hostname: '127.0.0.1',
		// Never closed for being idle (Bun's default: after 10 s). A client's pooled keep-alive connection that
		// the server closed as idle just as the client reused it came back ECONNRESET on a loaded machine (the
		// MCP clients of tests/sdk.ts, the apps host, plain fetches; one run in many): a test's server lives as
		// long as its process, so its few loopback connections may stay open too. The app's own limit
		// (HTTP_IDLE_TIMEOUT) is tested on the real server (tests/reliability/slow-clients.test.ts).
		idleTimeout: 0,
		fetch: (r, srv) => {
			const headers = new Headers(r.headers)
			headers.set('x-forwarded-for', srv.requestIP(r)?.address ?? '127.0.0.1')
			return handle(new Request(r, { headers }))
		},
	})
	const url = `http://127.0.0.1:${server.port}`
	const deps = await depsThatLive({ BASE_URL: url, TRUST_PROXY: 'on', ...overrides }, lives)
	if (lives === 'this file') closeWhenFileEnds(() => server.stop(true))
	const app = createApp(deps)
	handle = (r) => app.handle(r)
	return { url, deps }
}

/** A person with a personal token, ready for MCP calls. */
export async function newPersonWithToken(ws: TestWorkspace, role: string, options: { grants?: string[] } = {}) {
	const deps = await testDeps()
	const person = await newPerson(ws, role, options, deps)
	const { personActor, createPersonalToken } = await import('../modules/auth/index.ts')
	const actor = await personActor(deps, ws.slug, person.email)
	const { token, tokenId } = await createPersonalToken(
		deps,
		{ ...actor, credential: { kind: 'session', id: 'test', name: 'portal session' } },
		{ name: `${role} token` },
	)
	return { ...person, token, tokenId }
}

/** A SCIM token of the workspace (`bl_scim_…`), made by a new owner of it, for `/scim/v2`. */
export async function newScimToken(ws: TestWorkspace): Promise<string> {
	const deps = await testDeps()
	const owner = await newPerson(ws, 'owner', {}, deps)
	const { personActor } = await import('../modules/auth/index.ts')
	const { createScimToken } = await import('../modules/auth/sso/scim-tokens.ts')
	const actor = await personActor(deps, ws.slug, owner.email)
	const { token } = await createScimToken(deps, { ...actor, credential: { kind: 'session', id: 'test', name: 'portal session' } }, { name: 'Okta' })
	return token
}

/**
 * A second real database of the run's kind, for tests that must close or break one: a new
 * connection pool on DATABASE_URL, or an embedded copy of the shared test database (restored from
 * a dump, several times faster than creating and migrating a new one). The caller closes it.
 */
export async function openScratchDatabase(): Promise<Database> {
	const config = loadConfig()
	if (config.databaseUrl) return openDatabase(config) // the shared test database's schema, already migrated
	const shared = (await sharedDatabase()) as Database & { dump?: () => Promise<Blob> }
	const copy = await openMemoryDatabase(shared.dump ? await shared.dump() : undefined)
	if (!shared.dump) await copy.migrate(modules)
	return copy
}

/**
 * An empty database of the run's kind (a new PostgreSQL database on DATABASE_URL's server, or an
 * in-memory PGlite) that can also be migrated from any folder with drizzle's migrator (the legacy
 * history, a part of it). The caller closes it (a PostgreSQL one is dropped).
 */
export async function emptyDatabase(): Promise<{ database: Database; migrateFrom(folder: string): Promise<void>; close(): Promise<void> }> {
	if (!usingPostgres()) {
		const database = await openMemoryDatabase()
		const { migrate } = await import('drizzle-orm/pglite/migrator')
		return { database, migrateFrom: (folder) => migrate(database.db as never, { migrationsFolder: folder }), close: () => database.close() }
	}
	const server = process.env.DATABASE_URL!
	const name = `bl_scratch_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`
	const database = await openDatabase({ databaseUrl: await freshDatabase(server, name), dataDir: '' })
	const { migrate } = await import('drizzle-orm/postgres-js/migrator')
	return {
		database,
		migrateFrom: (folder) => migrate(database.db as never, { migrationsFolder: folder }),
		close: async () => {
			await database.close()
			await dropDatabase(server, name)
		},
	}
}

/**
 * A table as an older version of its module declared it, for a test that starts from that version:
 * its key alone, which is all start-up's check of the declared tables needs. (Declaring today's table
 * there fails as soon as a later migration adds a column to it.)
 */
export const tableAsItWas = (name: string) => pgTable(name, { id: text('id').primaryKey() })

/**
 * A temporary copy of a migrations folder (the legacy one, or a module's) whose journal stops
 * before the migration named `<number>_<name>`: a database as an earlier version left it, so a test
 * can write the rows a migration meets on a live database before it runs. `remove()` deletes it.
 */
export function migrationsBefore(from: string, name: string): { folder: string; remove(): void } {
	const folder = mkdtempSync(join(tmpdir(), 'bl-migrations-'))
	cpSync(from, folder, { recursive: true })
	const path = join(folder, 'meta/_journal.json')
	const journal = JSON.parse(readFileSync(path, 'utf8'))
	const at = journal.entries.findIndex((e: { tag: string }) => e.tag.endsWith(`_${name}`))
	if (at < 1) throw new Error(`${from}: no migration named ${name} after the first`)
	writeFileSync(path, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }))
	return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) }
}

/** What `loadConfig` refuses in `env`, one line per problem (empty when it accepts it). */
export function configProblems(env: Record<string, string>): string[] {
	try {
		loadConfig(env, modules)
		return []
	} catch (error) {
		if (!(error instanceof ConfigError)) throw error
		return error.problems
	}
}

/**
 * A tool result with every labelled text (`UntrustedText`, core/untrusted.ts) replaced by its
 * words: for tests that compare what a result says. Labels themselves are checked in
 * tests/mcp/tool-results.test.ts.
 */
export function plain<T = any>(value: unknown): T {
	if (Array.isArray(value)) return value.map((v) => plain(v)) as T
	if (value && typeof value === 'object') {
		const o = value as Record<string, unknown>
		if (o.untrusted === true && typeof o.text === 'string') return o.text as T
		return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, plain(v)])) as T
	}
	return value as T
}
