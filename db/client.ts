/**
 * The database handle: embedded PGlite under `DATA_DIR` when `DATABASE_URL` is unset,
 * PostgreSQL through postgres.js when it is set. The same migrations serve both (db/migrate.ts).
 *
 * Why a lock file: PGlite is a single-process database; two processes on one data folder
 * corrupt it. The second process is told to stop the first or to use `DATABASE_URL`.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { sql, type SQL } from 'drizzle-orm'
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { migrateModules, type SchemaOwner } from './migrate.ts'

/** Any drizzle database or transaction handle; services take this and never care which. */
export type Db = PgDatabase<PgQueryResultHKT>

export interface Database {
	readonly db: Db
	readonly kind: 'pglite' | 'postgres'
	/** Runs raw SQL and returns its rows, whatever the driver (PGlite answers `{rows}`, postgres.js an array). */
	rows<T = Record<string, unknown>>(query: SQL, handle?: Db): Promise<T[]>
	/** Runs a statement built once by `compile()` with this call's values (hot paths; see `compile`). */
	run<T = Record<string, unknown>>(statement: Compiled, values: Record<string, unknown>, handle?: Db): Promise<T[]>
	/**
	 * Applies the pending migrations of the core and of these modules, then checks that every table and
	 * column they declare exists (db/migrate.ts). On PostgreSQL under an advisory lock, so instances
	 * starting together take turns.
	 */
	migrate(modules: readonly SchemaOwner[]): Promise<void>
	/** True when the database answers a trivial query within `timeoutMs`. */
	ping(timeoutMs?: number): Promise<boolean>
	/**
	 * The pool's connections as counted from the statements and transactions in flight (PostgreSQL,
	 * when observed: metrics on); a statement beyond the pool's size waits for a connection.
	 */
	pool?(): { size: number; inUse: number; waiting: number }
	close(): Promise<void>
}

/** SQL text with positional parameters; a `sql.placeholder(name)` parameter is filled on each run. */
export interface Compiled {
	readonly text: string
	readonly params: readonly unknown[]
}

const dialect = new PgDialect()

/**
 * Turns drizzle SQL into text once. drizzle rebuilds the text from its template on every
 * `execute` (measured: about a fifth of the JavaScript thread of a publish). A hot statement is
 * compiled once, with `sql.placeholder(name)` for each value, and run with
 * `database.run(statement, values)`. Keep its text fixed: PostgreSQL keeps every distinct text
 * prepared on every connection.
 */
export function compile(query: SQL): Compiled {
	const { sql: text, params } = dialect.sqlToQuery(query)
	return { text, params }
}

/** Runs a compiled statement the way drizzle runs its own prepared queries (its logger and driver included). */
async function runCompiled<T>(handle: Db, statement: Compiled, values: Record<string, unknown>): Promise<T[]> {
	const query = handle._.session.prepareQuery({ sql: statement.text, params: statement.params as unknown[] }, undefined, undefined, false)
	return rowsOf<T>(await query.execute(values))
}

export class DatabaseLockedError extends Error {}

/** Watching the statements sent to PostgreSQL (metrics, traces); unset, nothing is wrapped. */
export interface StatementObserver {
	/** Count statements and transactions in flight, for `Database.pool()`. */
	readonly countPool: boolean
	/** A statement is sent; the function returned (if any) is called when it is answered, with its error if it failed. */
	statement(text: string): ((error?: unknown) => void) | undefined
}

/** Where the database is and how many connections it gets: these fields of the core's `Config` (core/config.ts). */
export interface DatabaseSettings {
	/** PostgreSQL connection string; unset means the embedded PGlite database in `dataDir`. */
	readonly databaseUrl: string | undefined
	readonly dataDir: string
	readonly databasePoolSize?: number
	readonly databasePoolMode?: 'session' | 'transaction'
}

/** Opens the configured database; `migrate(modules)` (run by `createDeps`) brings its schema up to date. */
export async function openDatabase(config: DatabaseSettings, observer?: StatementObserver): Promise<Database> {
	return config.databaseUrl
		? openPostgres(config.databaseUrl, { size: config.databasePoolSize ?? 10, mode: config.databasePoolMode ?? 'session', observer })
		: openPglite(config.dataDir)
}

/**
 * drizzle sends every statement it did not `.prepare()` as an unnamed one, so PostgreSQL parses and
 * plans it on every call (measured: about 0.27 ms of server CPU and a second round trip per publish).
 * postgres.js can prepare named statements itself and reuses them per connection by query text; our
 * statement texts are a bounded set (parameters carry the values), so we let it, transactions included.
 */
function alwaysPrepared<T extends object>(sql: T): T {
	return new Proxy(sql, {
		get(target, prop, receiver) {
			const value = Reflect.get(target, prop, receiver)
			if (prop === 'unsafe')
				return (query: string, params?: unknown[], options?: Record<string, unknown>) =>
					(value as (...a: unknown[]) => unknown).call(target, query, params, { ...options, prepare: true })
			if (prop === 'begin' || prop === 'savepoint')
				return (...args: unknown[]) => {
					const fn = args[args.length - 1] as (tx: object) => unknown
					return (value as (...a: unknown[]) => unknown).apply(target, [...args.slice(0, -1), (tx: object) => fn(alwaysPrepared(tx))])
				}
			return typeof value === 'function' ? value.bind(target) : value
		},
	})
}

/**
 * A postgres.js query runs when it is awaited (`then`), and its methods (`values()`…) return the query
 * itself: this wrapper sees that moment and the answer, and otherwise is the query.
 */
function observedQuery<Q extends object>(query: Q, sent: () => ((error?: unknown) => void) | undefined): Q {
	let done: ((error?: unknown) => void) | undefined
	let started = false
	const proxy: Q = new Proxy(query, {
		get(target, prop) {
			const value = Reflect.get(target, prop, target)
			if (prop === 'then')
				return (ok?: (v: unknown) => unknown, fail?: (e: unknown) => unknown) => {
					if (!started) {
						started = true
						done = sent()
					}
					const finish = (error?: unknown) => {
						done?.(error)
						done = undefined
					}
					return (value as PromiseLike<unknown>['then']).call(
						target,
						(v) => {
							finish()
							return ok ? ok(v) : v
						},
						(e) => {
							finish(e)
							if (fail) return fail(e)
							throw e
						},
					)
				}
			if (typeof value !== 'function') return value
			return (...args: unknown[]) => {
				const result = (value as (...a: unknown[]) => unknown).apply(target, args)
				return result === target ? proxy : result
			}
		},
	})
	return proxy
}

/**
 * Holds a lock on `key` until the transaction `tx` ends: transactions that take the same key run one
 * after another (a count checked then raised, numbers handed out, one decision per record).
 * Transaction-scoped, so it holds through a pooler in transaction mode, and on the embedded database.
 */
export async function lockUntilCommit(tx: Db, key: string): Promise<void> {
	await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`)
}

/**
 * Each statement observed (its span), and the pool's use counted: a statement outside a transaction
 * holds a connection while it runs, a transaction holds one from BEGIN to its end.
 */
function observed<T extends object>(sql: T, observer: StatementObserver, pool: { active: number }, inTransaction = false): T {
	return new Proxy(sql, {
		get(target, prop, receiver) {
			const value = Reflect.get(target, prop, receiver)
			if (prop === 'unsafe')
				return (text: string, ...rest: unknown[]) =>
					observedQuery((value as (...a: unknown[]) => object).call(target, text, ...rest), () => {
						const end = observer.statement(text)
						if (inTransaction || !observer.countPool) return end
						pool.active++
						return (error) => {
							pool.active--
							end?.(error)
						}
					})
			if (prop === 'begin' || prop === 'savepoint')
				return async (...args: unknown[]) => {
					const fn = args[args.length - 1] as (tx: object) => unknown
					const counted = prop === 'begin' && !inTransaction && observer.countPool
					if (counted) pool.active++
					try {
						return await (value as (...a: unknown[]) => Promise<unknown>).apply(target, [
							...args.slice(0, -1),
							(tx: object) => fn(observed(tx, observer, pool, true)),
						])
					} finally {
						if (counted) pool.active--
					}
				}
			return typeof value === 'function' ? value.bind(target) : value
		},
	})
}

export async function rowsOf<T>(result: unknown): Promise<T[]> {
	return (Array.isArray(result) ? result : ((result as { rows?: T[] }).rows ?? [])) as T[]
}

/**
 * postgres.js 3.4.9 is patched (patches/postgres+3.4.9.patch, applied on install): without it, a
 * connection PostgreSQL ends while a write is queued throws outside any promise, then never writes
 * again and hands its old error to the next query (tests/reliability/driver-reconnect.test.ts).
 */
/** How long an availability probe may go unanswered before its connection is given up for a new one. */
const STUCK_PROBE_MS = 8000

async function openPostgres(url: string, options: { size: number; mode: 'session' | 'transaction'; observer?: StatementObserver }): Promise<Database> {
	const { default: postgres } = await import('postgres')
	const { drizzle } = await import('drizzle-orm/postgres-js')
	const poolSize = options.size
	// Behind a pooler in transaction mode, consecutive transactions may run on different server
	// connections: a statement prepared on one is unknown on the next, and settings sent when a client
	// connects are refused by PgBouncer (or would stick to whichever server connection). So no named
	// statements, and only the application name at connection; the bounds below are then the
	// database's own (README, Connection poolers; checked at start-up, `checkSessionBounds`).
	const transactionMode = options.mode === 'transaction'
	const bounds = { statement_timeout: 15_000, idle_in_transaction_session_timeout: 30_000, jit: 'off' }
	const client = postgres(url, {
		max: poolSize,
		prepare: !transactionMode,
		connect_timeout: 3,
		idle_timeout: 30,
		max_lifetime: 30 * 60,
		// postgres.js waits (0.5–1) × min(3^failures / 100, 20) s before reconnecting, failures counted
		// across the pool: after an outage of a few seconds it waited up to 20 s more before serving
		// again (tests/reliability/faults.test.ts). Capped at 2 s.
		backoff: (failures: number) => Math.min(0.1 * 2 ** failures, 2),
		onnotice: () => {},
		// Server-side bounds: no statement or idle transaction holds a connection forever. No JIT
		// compilation: it pays off only for reads of millions of rows, and the planner's estimates of
		// short reads can cross `jit_above_cost` (the careers ranking at scale: 300–350 ms compiling a
		// 24 ms statement; bench/README.md, issue 13).
		connection: transactionMode ? { application_name: 'benchline' } : { application_name: 'benchline', ...bounds },
	})
	const pool = { active: 0 }
	const prepared = transactionMode ? client : alwaysPrepared(client)
	const db = drizzle({ client: options.observer ? observed(prepared, options.observer, pool) : prepared }) as unknown as Db
	// The availability probe (and /health) get a connection of their own: a pool busy with slow
	// queries is not an outage, and must not turn every request into a 503. One probe at a time:
	// while one waits on a stalled server, the next ones wait on it instead of piling up.
	const probeOptions = {
		max: 1,
		connect_timeout: 2,
		idle_timeout: 60,
		backoff: () => 0.25,
		onnotice: () => {},
		prepare: !transactionMode,
		connection: transactionMode ? { application_name: 'benchline-probe' } : { application_name: 'benchline-probe', statement_timeout: 2000 },
	}
	let probe = postgres(url, probeOptions)
	let probing: { answer: Promise<boolean>; since: number } | null = null
	const ping = (timeoutMs: number) => {
		// A probe unanswered far longer than any answer takes is stuck on a connection that will never
		// answer (a socket left half-open by a fault: nothing on it times out): without this, the
		// process answered 503 for good although the database was back. A fresh connection asks instead.
		if (probing && performance.now() - probing.since > STUCK_PROBE_MS) {
			const stuck = probe
			probe = postgres(url, probeOptions)
			probing = null
			stuck.end({ timeout: 0 }).catch(() => {})
		}
		if (!probing) {
			const current = {
				since: performance.now(),
				answer: probe`select 1`.then(
					() => true,
					() => false,
				),
			}
			current.answer.finally(() => {
				if (probing === current) probing = null
			})
			probing = current
		}
		return withTimeout(probing.answer, timeoutMs)
	}
	const database: Database = {
		db,
		kind: 'postgres',
		migrate: async (modules) => {
			const { migrate } = await import('drizzle-orm/postgres-js/migrator')
			// A connection of its own, without the pool's statement timeout: a migration's index build or
			// backfill on a large database takes longer than any request may (2,000,000 applications:
			// tens of seconds), and a timeout would stop the upgrade half-way at every start.
			//
			// Every migration of every module runs in one transaction, under a transaction-scoped advisory
			// lock: instances starting together take turns, and it works the same through a pooler in
			// transaction mode, where a session-level lock could be taken on one server connection and the
			// migrations run on another. A migration that fails leaves the database as it was.
			const migrator = postgres(url, {
				max: 1,
				connect_timeout: 3,
				onnotice: () => {},
				prepare: !transactionMode,
				connection: { application_name: 'benchline-migrate' },
			})
			try {
				await migrator.begin(async (tx) => {
					await tx`select set_config('statement_timeout', '0', true), set_config('idle_in_transaction_session_timeout', '0', true)`
					await tx`select pg_advisory_xact_lock(7283461)`
					// drizzle's migrator opens a transaction per folder: inside this one, a savepoint. (drizzle
					// also sets its type parsers on the client's options, which are the connection's.)
					const nested = new Proxy(tx, {
						get: (target, prop) => (prop === 'begin' ? target.savepoint : prop === 'options' ? migrator.options : Reflect.get(target, prop)),
					})
					const migratorDb = drizzle({ client: nested as never })
					await migrateModules({ rows: async (query) => rowsOf(await migratorDb.execute(query)) }, modules, (config) => migrate(migratorDb as never, config))
				})
			} finally {
				await migrator.end({ timeout: 5 })
			}
			if (transactionMode) await checkSessionBounds(client, bounds)
		},
		rows: async (query, handle = db) => rowsOf(await handle.execute(query)),
		run: (statement, values, handle = db) => runCompiled(handle, statement, values),
		ping: (timeoutMs = 2000) => ping(timeoutMs),
		close: async () => void (await Promise.all([client.end({ timeout: 5 }), probe.end({ timeout: 1 })])),
		pool: options.observer?.countPool
			? () => ({ size: poolSize, inUse: Math.min(pool.active, poolSize), waiting: Math.max(0, pool.active - poolSize) })
			: undefined,
	}
	return database
}

export class SessionBoundsError extends Error {}

/**
 * In transaction mode the bounds are not sent at connection: they must be the database's (or the
 * role's) own settings, or PgBouncer's `connect_query`. Start-up stops when they are not, naming the
 * statement that sets them, rather than run with statements that may never time out.
 */
async function checkSessionBounds(
	client: import('postgres').Sql,
	bounds: { statement_timeout: number; idle_in_transaction_session_timeout: number; jit: string },
) {
	const [row] = await client<{ st: string; idle: string; jit: string; db: string }[]>`select current_setting('statement_timeout') as st,
		current_setting('idle_in_transaction_session_timeout') as idle, current_setting('jit') as jit, current_database() as db`
	const ms = (text: string) => {
		const m = /^(\d+)\s*(ms|s|min|h)?$/.exec(text ?? '')
		return m ? Number(m[1]) * ({ ms: 1, s: 1000, min: 60_000, h: 3_600_000 }[m[2] ?? 'ms'] ?? 1) : 0
	}
	if (row && ms(row.st) > 0 && ms(row.idle) > 0 && row.jit === 'off') return
	throw new SessionBoundsError(
		`DATABASE_POOL_MODE=transaction: the database must bound statements itself (the pooler does not pass settings on): ` +
			`statement_timeout is ${row?.st}, idle_in_transaction_session_timeout ${row?.idle}, jit ${row?.jit}. Run once:\n` +
			`  ALTER DATABASE "${row?.db}" SET statement_timeout = '${bounds.statement_timeout / 1000}s';\n` +
			`  ALTER DATABASE "${row?.db}" SET idle_in_transaction_session_timeout = '${bounds.idle_in_transaction_session_timeout / 1000}s';\n` +
			`  ALTER DATABASE "${row?.db}" SET jit = off;\n` +
			`(or set them for the role, or in PgBouncer's connect_query), then start again.`,
	)
}

async function openPglite(dataDir: string): Promise<Database> {
	const folder = resolve(dataDir, 'pglite')
	mkdirSync(folder, { recursive: true })
	const release = acquireLock(resolve(dataDir))
	try {
		const { database, client } = await pgliteDatabase({ dataDir: folder })
		let closed = false
		return {
			...database,
			close: async () => {
				if (closed) return
				closed = true
				await client.close()
				release()
			},
		}
	} catch (error) {
		release()
		throw error
	}
}

/** An in-memory PGlite (tests, benchmarks): no lock, nothing on disk. */
export async function openMemoryDatabase(loadDataDir?: Blob): Promise<Database & { dump(): Promise<Blob> }> {
	const { database, client } = await pgliteDatabase({ loadDataDir })
	return { ...database, dump: async () => (await client.dumpDataDir('none')) as Blob }
}

/** The one way PGlite is opened (with pg_trgm), on disk (`dataDir`) or in memory, and its handle. */
async function pgliteDatabase(options: { dataDir: string } | { loadDataDir?: Blob }) {
	const { PGlite } = await import('@electric-sql/pglite')
	const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm')
	const { drizzle } = await import('drizzle-orm/pglite')
	const client = await PGlite.create({ ...options, extensions: { pg_trgm } })
	const db = drizzle({ client }) as unknown as Db
	const database: Database = {
		db,
		kind: 'pglite',
		migrate: (modules) => migratePglite(database, modules),
		rows: async (query, handle = db) => rowsOf(await handle.execute(query)),
		run: (statement, values, handle = db) => runCompiled(handle, statement, values),
		ping: (timeoutMs = 2000) => pingWith(db, timeoutMs),
		close: () => client.close(),
	}
	return { database, client }
}

/**
 * The answer, or false when none came within `timeoutMs`. A timer that fires late because the
 * event loop was busy (a burst of CPU work, a long GC) says nothing about the database: the query
 * may not even have been written yet. Such a late timer gives the answer one more period before
 * the verdict, so only a database that is silent while the process is responsive is called down.
 */
async function withTimeout(answer: Promise<boolean>, timeoutMs: number): Promise<boolean> {
	let timer: ReturnType<typeof setTimeout> | undefined
	const timeout = new Promise<boolean>((done) => {
		const wait = (graceLeft: boolean) => {
			const due = performance.now() + timeoutMs
			timer = setTimeout(() => {
				const late = performance.now() - due
				if (graceLeft && late > Math.min(100, timeoutMs / 4)) wait(false)
				else done(false)
			}, timeoutMs)
		}
		wait(true)
	})
	try {
		return await Promise.race([answer.catch(() => false), timeout])
	} finally {
		clearTimeout(timer)
	}
}

const pingWith = (db: Db, timeoutMs: number) =>
	withTimeout(
		db.execute(sql`select 1`).then(() => true),
		timeoutMs,
	)

function processAlive(pid: number): boolean {
	try {
		process.kill(pid, 0)
		return true
	} catch (error) {
		return (error as { code?: string }).code === 'EPERM'
	}
}

function acquireLock(dataDir: string): () => void {
	const lockFile = join(dataDir, 'pglite.lock')
	for (let attempt = 0; attempt < 2; attempt++) {
		try {
			writeFileSync(lockFile, String(process.pid), { flag: 'wx' })
			let released = false
			const release = () => {
				if (released) return
				released = true
				try {
					if (readFileSync(lockFile, 'utf8') === String(process.pid)) rmSync(lockFile)
				} catch {}
			}
			process.once('exit', release)
			return release
		} catch (error) {
			if ((error as { code?: string }).code !== 'EEXIST') throw error
			const owner = Number(readFileSync(lockFile, 'utf8'))
			if (owner && owner !== process.pid && processAlive(owner)) {
				throw new DatabaseLockedError(
					`The embedded database in ${dataDir} is in use by another process (pid ${owner}, probably the server). ` +
						`Stop that process first, or point both at PostgreSQL with DATABASE_URL.`,
				)
			}
			if (existsSync(lockFile)) rmSync(lockFile) // stale lock of a process that died
		}
	}
	throw new DatabaseLockedError(`Could not lock the embedded database in ${dataDir}`)
}

async function migratePglite(database: Database, modules: readonly SchemaOwner[]): Promise<void> {
	const { migrate } = await import('drizzle-orm/pglite/migrator')
	await migrateModules(database, modules, (config) => migrate(database.db as never, config))
}

/**
 * One value per database handle, built on first use — for prepared statements, which belong to
 * the handle they were prepared on (tests and benchmarks open several databases in one process).
 */
export function perDatabase<T>(build: (db: Db) => T): (db: Db) => T {
	const built = new WeakMap<object, T>()
	return (db) => {
		let value = built.get(db)
		if (value === undefined) built.set(db, (value = build(db)))
		return value
	}
}
