/**
 * K4's machinery: proves that a write made of several statements in one transaction leaves nothing
 * half-done when its database connection dies between two of them (the statement-faults*.test.ts files).
 *
 * How the fault is placed, deterministically: the test holds a lock (a table lock, or a row lock
 * on the one row the later statement needs) on a connection of its own, sends the request, waits
 * until pg_stat_activity shows the request's backend blocked by that lock on the expected statement
 * (pg_locks shows which tables it has already written in its transaction), then ends that backend
 * with pg_terminate_backend. The test then checks the answer (not acknowledged), that the database
 * shows none of the transaction's effects, and that the same request sent again succeeds once.
 *
 * Everything runs on a database of its own (created on the DATABASE_URL server and dropped after),
 * so the table locks stop no one else's tests, against a real server process (`core/main.ts`): the
 * server as it runs in production is what is cut. Fixtures are written in-process on connections
 * never terminated.
 * PostgreSQL only: PGlite runs inside the process on a single connection, so there is no second
 * connection to hold a lock or to terminate it from.
 */
import { afterAll, beforeAll, describe, expect } from 'bun:test'
import { appendFileSync, existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import type postgres from 'postgres'
import { loadConfig } from '../../core/config.ts'
import type { AppDeps } from '../../core/deps.ts'
import { createLogger } from '../../core/log.ts'
import { closeDeps, createDeps } from '../../core/main.ts'
import { createPersonalToken, personActor } from '../../modules/auth/index.ts'
import { newPerson, newWorkspace, usingPostgres, type TestWorkspace } from '../helpers.ts'
import { authServerOn, mcp, type AS } from '../oauth/as-client.ts'
import { PortalClient, uniqueAddress } from '../portal.ts'
import { startServer, TEST_LOG, waitFor, type ServerProcess } from './processes.ts'

export type Sql = postgres.Sql
export type Reserved = postgres.ReservedSql
type App = { handle(request: Request): Promise<Response> }

/** `describe` on PostgreSQL, `describe.skip` on PGlite; `skipReason` goes at the end of the describe's name. */
export const onPostgres = usingPostgres() ? describe : describe.skip
export const skipReason = usingPostgres()
	? ''
	: ' (PostgreSQL only: PGlite is one in-process connection, with no second connection to hold a lock or terminate it from)'

/** The database of its own, the server process on it, and in-process deps for fixtures. Filled in by the harness's beforeAll. */
export interface FaultWorld {
	admin: Sql
	dbName: string
	/** The database's address, for other processes (the operator CLI). */
	databaseUrl: string
	deps: AppDeps
	server: ServerProcess
	/** The server process seen through an in-process app's interface (test helpers build requests for one). */
	app: App
	ctx: AS
}

/**
 * Registers the beforeAll/afterAll that create the database and start the server (with `env` on
 * top of the defaults), and returns the helpers; `world()` is ready from the first test on.
 */
export function statementFaults(env: Record<string, string> = {}) {
	let w: FaultWorld | undefined
	const world = (): FaultWorld => {
		if (!w) throw new Error('the statement-fault harness is not started (its beforeAll has not run)')
		return w
	}

	beforeAll(async () => {
		const { default: postgresClient } = await import('postgres')
		const postgresServer = new URL(process.env.DATABASE_URL!)
		const dbName = `bl_k4_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`
		const url = new URL(postgresServer.href)
		url.pathname = `/${dbName}`
		const partial: Partial<FaultWorld> = { dbName, databaseUrl: url.href }
		w = partial as FaultWorld // afterAll drops the database and stops what started, even when a later step fails
		const bootstrap = postgresClient(postgresServer.href, { max: 1, onnotice: () => {} })
		await bootstrap.unsafe(`create database ${dbName}`)
		await bootstrap.end()
		partial.admin = postgresClient(url.href, { max: 4, onnotice: () => {} })
		// A pool connection whose backend was terminated fails its next use in postgres.js 3.4.9 (it
		// replays the old backend's 57P01, or times out reconnecting): one more 503 for whichever later
		// request gets it (porsager/postgres#1215, #1223). The pool reconnects a closed connection only
		// when no open one is idle, the never-opened ones first: with more than these tests ever open,
		// the terminated ones are not reused, and each test sees the effects of its own cut only.
		const server = (partial.server = await startServer({
			DATABASE_URL: url.href,
			DATABASE_POOL_SIZE: '50',
			TRUST_PROXY: 'on',
			RATE_LIMIT_PER_MINUTE: '100000',
			...env,
		}))
		const config = loadConfig({ ...process.env, ...env, DATABASE_URL: url.href, BASE_URL: server.url, REDIS_URL: '', LOG_LEVEL: 'warn' })
		partial.deps = await createDeps({ config, log: createLogger('warn', (line) => appendFileSync(TEST_LOG, line + '\n')) })
		partial.app = {
			async handle(request) {
				const { pathname, search } = new URL(request.url)
				const body = request.body ? await request.arrayBuffer() : undefined
				return fetch(`${server.url}${pathname}${search}`, { method: request.method, headers: request.headers, body, redirect: 'manual' })
			},
		}
		partial.ctx = await authServerOn(partial.app, partial.deps)
	}, 90_000)

	afterAll(async () => {
		if (!w) return
		w.server?.kill('SIGKILL')
		if (w.deps) await closeDeps(w.deps)
		await w.admin?.end()
		const { default: postgresClient } = await import('postgres')
		const bootstrap = postgresClient(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} })
		await bootstrap.unsafe(`drop database if exists ${w.dbName} with (force)`)
		await bootstrap.end()
	})

	/**
	 * Sends `request` while the test holds the lock `hold` takes, waits until a backend is blocked by
	 * it on a statement matching `at` (the request's: nothing else sends that statement), terminates
	 * that backend and returns the answer and the tables its transaction had opened for writing by then (a
	 * statement waiting on a row lock has opened its own table already).
	 */
	async function terminatedAt<T>(hold: (lock: Reserved) => Promise<unknown>, at: RegExp, request: () => Promise<T>): Promise<{ answer: T; written: string[] }> {
		const { admin, dbName, server } = world()
		const lock = await admin.reserve()
		try {
			await lock`begin`
			await hold(lock)
			const [{ pid: holder }] = await lock<{ pid: number }[]>`select pg_backend_pid() as pid`
			let settled = false
			const answer = request().finally(() => (settled = true))
			let blocked: { pid: number; query: string } | undefined
			await waitFor(
				'the request to block on the lock the test holds',
				async () => {
					if (settled)
						throw Object.assign(new Error(`the request finished without blocking on the lock: ${JSON.stringify(await answer).slice(0, 400)}`), { fatal: true })
					// The server's background work (the outbox worker) may be waiting on the same lock: pick the request's statement.
					const waiting = await admin<
						{ pid: number; query: string }[]
					>`select pid, query from pg_stat_activity where datname = ${dbName} and ${holder}::int = any(pg_blocking_pids(pid))`
					blocked = waiting.find((w) => at.test(w.query))
					return Boolean(blocked)
				},
				15_000,
				5,
			)
			const written = await admin<{ relname: string }[]>`select distinct c.relname from pg_locks l join pg_class c on c.oid = l.relation
				where l.pid = ${blocked!.pid} and l.mode = 'RowExclusiveLock' and l.granted and c.relkind = 'r' order by c.relname`
			const [{ ended }] = await admin<{ ended: boolean }[]>`select pg_terminate_backend(${blocked!.pid}) as ended`
			expect(ended).toBe(true)
			const result = await answer
			expect(server.alive()).toBe(true)
			return { answer: result, written: written.map((r) => r.relname) }
		} finally {
			await lock`rollback`.catch(() => {})
			lock.release()
		}
	}

	const tableLock = (table: string) => (lock: Reserved) => lock.unsafe(`lock table ${table} in share mode`)
	const count = async (query: Promise<{ n: number }[]>) => (await query)[0]!.n
	/** Files stored under a folder of the file store (résumés, submission copies). */
	const filesUnder = (folder: string) => {
		const dir = join(world().deps.config.dataDir, 'files', folder)
		return existsSync(dir) ? readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length : 0
	}
	/** Lines of the activity log with this action in the workspace. */
	const linesOf = (ws: TestWorkspace, action: string) =>
		count(world().admin`select count(*)::int as n from activity where workspace_id = ${ws.id} and action = ${action}`)

	/** A fresh workspace and a person in it (with their password, for signing in). */
	async function person(role = 'owner') {
		const { deps } = world()
		const ws = await newWorkspace(deps)
		const who = await newPerson(ws, role, {}, deps)
		return { ws, who, actor: await personActor(deps, ws.slug, who.email) }
	}
	/** A fresh owner with a personal token for the MCP endpoint. */
	async function ownerToken() {
		const p = await person()
		const { token } = await createPersonalToken(
			world().deps,
			{ ...p.actor, credential: { kind: 'session', id: 'test', name: 'portal session' } },
			{ name: 'fault test' },
		)
		return { ...p, token }
	}
	const tool = async (token: string, name: string, args: Record<string, unknown>) => {
		const res = await mcp(world().ctx, token, 'tools/call', { name, arguments: args })
		return { status: res.status, result: res.message?.result, error: res.message?.error }
	}
	/** A tool call the server could not complete: a tool error saying to retry (not acknowledged). */
	const expectToolUnavailable = (answer: Awaited<ReturnType<typeof tool>>) =>
		expect(answer).toMatchObject({ status: 200, result: { isError: true, content: [{ text: expect.stringContaining('temporarily unavailable') }] } })

	/** A portal client signed in as `who` (its own client address), on a page with a form. */
	async function signedIn(who: { email: string; password: string }) {
		const portal = new PortalClient(world().app, { address: uniqueAddress() })
		expect((await portal.signIn(who.email, who.password)).status).toBe(303)
		expect((await portal.get('/portal')).status).toBe(200)
		return portal
	}

	return { world, terminatedAt, tableLock, count, filesUnder, linesOf, person, ownerToken, tool, expectToolUnavailable, signedIn }
}
