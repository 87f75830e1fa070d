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
import type { Config } from '../core/config.ts'
import type { ModuleDef } from '../core/module.ts'
import { migrateModules } from './migrate.ts'

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
	migrate(modules: readonly ModuleDef[]): Promise<void>
	/** True when the database answers a trivial query within `timeoutMs`. */
	ping(timeoutMs?: number): Promise<boolean>
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

/** Opens the configured database; `migrate(modules)` (run by `createDeps`) brings its schema up to date. */
export async function openDatabase(config: Pick<Config, 'databaseUrl' | 'dataDir'> & Partial<Pick<Config, 'databasePoolSize'>>): Promise<Database> {
	return config.databaseUrl ? openPostgres(config.databaseUrl, config.databasePoolSize ?? 10) : openPglite(config.dataDir)
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

export async function rowsOf<T>(result: unknown): Promise<T[]> {
	return (Array.isArray(result) ? result : ((result as { rows?: T[] }).rows ?? [])) as T[]
}

/**
 * postgres.js 3.4.9 is patched (patches/postgres+3.4.9.patch, applied on install): without it, a
 * connection PostgreSQL ends while a write is queued throws outside any promise, then never writes
 * again and hands its old error to the next query (tests/reliability/driver-reconnect.test.ts).
 */
async function openPostgres(url: string, poolSize: number): Promise<Database> {
	const { default: postgres } = await import('postgres')
	const { drizzle } = await import('drizzle-orm/postgres-js')
	const client = postgres(url, {
		max: poolSize,
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
		connection: { application_name: 'benchline', statement_timeout: 15_000, idle_in_transaction_session_timeout: 30_000, jit: 'off' },
	})
	const db = drizzle({ client: alwaysPrepared(client) }) as unknown as Db
	// The availability probe (and /health) get a connection of their own: a pool busy with slow
	// queries is not an outage, and must not turn every request into a 503. One probe at a time:
	// while one waits on a stalled server, the next ones wait on it instead of piling up.
	const probe = postgres(url, {
		max: 1,
		connect_timeout: 2,
		idle_timeout: 60,
		backoff: () => 0.25,
		onnotice: () => {},
		connection: { application_name: 'benchline-probe', statement_timeout: 2000 },
	})
	let probing: Promise<boolean> | null = null
	const ping = (timeoutMs: number) => {
		probing ??= probe`select 1`
			.then(
				() => true,
				() => false,
			)
			.finally(() => (probing = null))
		return withTimeout(probing, timeoutMs)
	}
	const database: Database = {
		db,
		kind: 'postgres',
		migrate: async (modules) => {
			const { migrate } = await import('drizzle-orm/postgres-js/migrator')
			// A connection of its own, without the pool's statement timeout: a migration's index build or
			// backfill on a large database takes longer than any request may (2,000,000 applications:
			// tens of seconds), and a timeout would stop the upgrade half-way at every start.
			const migrator = postgres(url, {
				max: 1,
				connect_timeout: 3,
				onnotice: () => {},
				connection: { application_name: 'benchline-migrate', statement_timeout: 0, idle_in_transaction_session_timeout: 0 },
			})
			try {
				await migrator`select pg_advisory_lock(7283461)`
				const migratorDb = drizzle({ client: migrator })
				await migrateModules({ rows: async (query) => rowsOf(await migratorDb.execute(query)) }, modules, (config) => migrate(migratorDb as never, config))
			} finally {
				await migrator`select pg_advisory_unlock(7283461)`.catch(() => {})
				await migrator.end({ timeout: 5 })
			}
		},
		rows: async (query, handle = db) => rowsOf(await handle.execute(query)),
		run: (statement, values, handle = db) => runCompiled(handle, statement, values),
		ping: (timeoutMs = 2000) => ping(timeoutMs),
		close: async () => void (await Promise.all([client.end({ timeout: 5 }), probe.end({ timeout: 1 })])),
	}
	return database
}

async function openPglite(dataDir: string): Promise<Database> {
	const folder = resolve(dataDir, 'pglite')
	mkdirSync(folder, { recursive: true })
	const release = acquireLock(resolve(dataDir))
	try {
		const { PGlite } = await import('@electric-sql/pglite')
		const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm')
		const { drizzle } = await import('drizzle-orm/pglite')
		const client = await PGlite.create(folder, { extensions: { pg_trgm } })
		const db = drizzle({ client }) as unknown as Db
		let closed = false
		const database: Database = {
			db,
			kind: 'pglite',
			migrate: (modules) => migratePglite(database, modules),
			rows: async (query, handle = db) => rowsOf(await handle.execute(query)),
			run: (statement, values, handle = db) => runCompiled(handle, statement, values),
			ping: (timeoutMs = 2000) => pingWith(db, timeoutMs),
			close: async () => {
				if (closed) return
				closed = true
				await client.close()
				release()
			},
		}
		return database
	} catch (error) {
		release()
		throw error
	}
}

/** An in-memory PGlite (tests, benchmarks): no lock, nothing on disk. */
export async function openMemoryDatabase(loadDataDir?: Blob): Promise<Database & { dump(): Promise<Blob> }> {
	const { PGlite } = await import('@electric-sql/pglite')
	const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm')
	const { drizzle } = await import('drizzle-orm/pglite')
	const client = await PGlite.create({ extensions: { pg_trgm }, loadDataDir })
	const db = drizzle({ client }) as unknown as Db
	const database: Database & { dump(): Promise<Blob> } = {
		db,
		kind: 'pglite',
		migrate: (modules) => migratePglite(database, modules),
		rows: async (query, handle = db) => rowsOf(await handle.execute(query)),
		run: (statement, values, handle = db) => runCompiled(handle, statement, values),
		ping: (timeoutMs = 2000) => pingWith(db, timeoutMs),
		close: () => client.close(),
		dump: async () => (await client.dumpDataDir('none')) as Blob,
	}
	return database
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

async function migratePglite(database: Database, modules: readonly ModuleDef[]): Promise<void> {
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
