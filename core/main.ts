/**
 * Composition root: configuration → database → module registry → dependencies → HTTP app.
 * The only file in `core/` that imports `modules/`.
 */
import { sql } from 'drizzle-orm'
import { decodeBase64, encodeBase64 } from '@oslojs/encoding'
import { modules } from '../modules/index.ts'
import type { Server } from 'bun'
import { DatabaseLockedError, openDatabase, SessionBoundsError, type Database, type StatementObserver } from '../db/client.ts'
import { SchemaError } from '../db/migrate.ts'
import { serverSettings } from '../db/core-tables.ts'
import { badTarget, buildApp } from './app.ts'
import { ConfigError, loadConfig, StartupError, type Config } from './config.ts'
import type { AppDeps } from './deps.ts'
import { memoryLimiter, redisLimiter } from './http/rate-limit.ts'
import { answerWhileAvailable, unavailableResponse, watchDatabase } from './http/availability.ts'
import { notePeer } from './http/client-address.ts'
import { canonicalRequest, pathOf } from './http/request-path.ts'
import { securityHeaders } from './http/security-headers.ts'
import { createLogger, type Logger } from './log.ts'
import { metricsOnly } from './http/metrics-route.ts'
import { observeRequest } from './http/observe.ts'
import { createMetrics, noMetrics } from './metrics.ts'
import { noTracing, startTracing } from './tracing.ts'
import { mcpRoute } from './mcp/handler.ts'
import { memoryRelay, redisRelay } from './mcp/answers.ts'
import type { ModuleDef } from './module.ts'
import { compilePermissions } from './permissions.ts'
import { buildRegistry, RegistryError } from './registry.ts'
import { createDemoWorkspace } from './demo.ts'
import { workLeftBehind } from './work-left.ts'

export { modules }

/** The server secret lives in the database so that every instance shares it. */
async function serverSecret(database: Database): Promise<Uint8Array> {
	const fresh = encodeBase64(crypto.getRandomValues(new Uint8Array(32)))
	await database.db.insert(serverSettings).values({ key: 'secret', value: fresh }).onConflictDoNothing()
	const [row] = await database.rows<{ value: string }>(sql`select value from server_settings where key = 'secret'`)
	return decodeBase64(row!.value)
}

export interface CreateDepsOptions {
	config: Config
	log?: Logger
	/** Use this database instead of opening the configured one (tests). */
	database?: Database
	moduleList?: readonly ModuleDef[]
	now?: () => Date
}

/**
 * Module lists already migrated and checked on a database: tests build many deps on one database,
 * and each migration pass reads every module's journal and the catalog (a few hundred ms on PGlite).
 */
const migrated = new WeakMap<Database, Set<readonly ModuleDef[]>>()

/**
 * Opens the configured database, or says which setting keeps it from opening (`StartupError`): the
 * embedded database's folder (`DATA_DIR`) that cannot be made or written, a PostgreSQL server
 * (`DATABASE_URL`) that does not answer or refuses the connection. PostgreSQL connects on the first
 * statement, so one is sent now: what it says then is about the address or the credentials, never
 * about a migration. The message names host, port and database only, never the password.
 */
async function openConfiguredDatabase(config: Config, observer?: StatementObserver): Promise<Database> {
	if (!config.databaseUrl) {
		try {
			return await openDatabase(config, observer)
		} catch (error) {
			if (error instanceof DatabaseLockedError) throw error
			throw new StartupError('DATA_DIR', `the embedded database cannot be kept in ${config.dataDir}: ${(error as Error).message}`)
		}
	}
	const database = await openDatabase(config, observer)
	try {
		await database.rows(sql`select 1`)
		return database
	} catch (error) {
		await database.close().catch(() => {})
		// drizzle wraps the driver's error ("Failed query: select 1"): the driver's says what went wrong.
		const reason = error instanceof Error && error.cause instanceof Error ? error.cause : (error as Error)
		throw new StartupError('DATABASE_URL', `PostgreSQL at ${databaseAddress(config.databaseUrl)} cannot be used: ${reason.message}`)
	}
}

/** `host:port/database` of a connection string: what a message may show of it. */
function databaseAddress(url: string): string {
	const u = new URL(url)
	return `${u.hostname}:${u.port || 5432}${u.pathname}`
}

/** Dependencies whose database `createDeps` opened itself (not handed in): `closeDeps` closes it too. */
const openedDatabase = new WeakSet<AppDeps>()
const closed = new WeakSet<AppDeps>()

/** Everything routes, tools, commands and services need, built once. */
export async function createDeps(options: CreateDepsOptions): Promise<AppDeps> {
	const { config } = options
	const log = options.log ?? createLogger(config.logLevel)
	const registry = buildRegistry(options.moduleList ?? modules)
	for (const w of registry.warnings) log.warn(w)
	// Settings of modules `loadConfig` was not given (tests, scripts) are checked here, before anything opens.
	const settingProblems = config.settings.problems(registry.modules.flatMap((m) => (m.settings ? [m.settings] : [])))
	if (settingProblems.length) throw new ConfigError(settingProblems)
	const tracing = config.tracing ? await startTracing(config.tracing, log) : noTracing
	const metricsOn = Boolean(config.metricsToken || config.metricsPort)
	const observer = metricsOn || tracing.enabled ? { countPool: metricsOn, statement: (text: string) => tracing.statement(text) } : undefined
	const database = options.database ?? (await openConfiguredDatabase(config, observer))
	// Also for a database handed in: a module list of its own (tests) gets its tables checked.
	const list = options.moduleList ?? modules
	const done = migrated.get(database) ?? new Set()
	if (!done.has(list)) {
		await database.migrate(registry.modules)
		migrated.set(database, done.add(list))
	}
	const limiter = config.redisUrl ? await redisLimiter(config.redisUrl, config.rateLimitPerMinute, log) : memoryLimiter(config.rateLimitPerMinute)
	let draining = false
	const deps: AppDeps = {
		config,
		database,
		db: database.db,
		log,
		permissions: compilePermissions(registry.modules),
		registry,
		limiter,
		answers: config.redisUrl ? await redisRelay(config.redisUrl, log) : memoryRelay(),
		secret: await serverSecret(database),
		availability: watchDatabase(database, log),
		metrics: metricsOn ? createMetrics(() => deps) : noMetrics,
		tracing,
		lifecycle: { draining: () => draining, drain: () => void (draining = true), ...workLeftBehind(log) },
		now: options.now ?? (() => new Date()),
	}
	if (!options.database) openedDatabase.add(deps)
	return deps
}

/**
 * Closes what `createDeps` opened, in one place so that no caller forgets a part: the availability
 * probe, the Redis connections of the rate limiter and of the answer relay (left open, ioredis
 * reconnects to a Redis that has gone every two seconds, for as long as the process lives), the
 * database if `createDeps` opened it (a database handed in is its owner's to close), and the trace
 * exporter (which sends what it still holds). First it finishes the work left behind (`settle`). A
 * second call does nothing.
 */
export async function closeDeps(deps: AppDeps): Promise<void> {
	if (closed.has(deps)) return
	closed.add(deps)
	await settle(deps).catch((error: unknown) => deps.log.warn('work left behind could not be finished before closing', { error }))
	deps.availability.stop()
	await deps.limiter.close()
	await deps.answers.close()
	if (openedDatabase.has(deps)) await deps.database.close()
	await deps.tracing.shutdown().catch(() => {})
}

/**
 * Finishes what the process left behind while the database is still open: the work due later (an
 * erasure's second scrub), then each module's write-behind buffer (the audit trail's lines, the
 * scrub's included). A CLI command recorded in the trail was otherwise never written: its process
 * exited before the buffer's 200 ms timer.
 */
async function settle(deps: AppDeps): Promise<void> {
	await deps.lifecycle.settle()
	for (const m of deps.registry.modules) await m.settle?.(deps)
}

export function createApp(deps: AppDeps) {
	return buildApp(deps, [(kit) => mcpRoute(deps, kit)])
}

/**
 * Serves the app over HTTP. Each request is handed to the app with the address of the connection
 * it came on (`notePeer`): every per-address limit counts by it (core/http/client-address.ts).
 */
export function listen(deps: AppDeps, app: ReturnType<typeof createApp>, options: { port: number; hostname?: string }) {
	return Bun.serve({ port: options.port, hostname: options.hostname, ...serverOptions(deps, app) })
}

/** Settings of the listening socket: given when it opens (`server.reload` changes only the handlers). */
const socketOptions = (config: Config) => ({ maxRequestBodySize: 16 * 1024 * 1024, idleTimeout: config.httpIdleTimeout })

function serverOptions(deps: AppDeps, app: ReturnType<typeof createApp>) {
	const headers = securityHeaders(deps.config.https)
	return {
		...socketOptions(deps.config),
		fetch: (received: Request, server: Server<unknown>) => {
			// On the public origin first (core/http/request-path.ts): the peer is noted on the request the app sees.
			const request = canonicalRequest(received, deps.config.baseUrl)
			if (!request) return badTarget(headers)
			notePeer(request, server.requestIP(received)?.address)
			// A request waiting on the database when it stops answering gets its 503 at once (availability.ts).
			return observeRequest(deps, request, () =>
				answerWhileAvailable(deps.availability, request, app.handle(request), () => unavailableResponse(request, headers)),
			)
		},
		error: (error: Error) => {
			deps.log.error('server error', { error })
			return new Response('Internal error', { status: 500 })
		},
	}
}

/**
 * What answers while the instance starts (migrations, the demo workspace): 503 with `Retry-After`,
 * `/health` saying `starting` and `/ready` not ready, so a load balancer or orchestrator waits.
 */
export function starting(config: Config) {
	const headers = securityHeaders(config.https)
	return (received: Request) => {
		const request = canonicalRequest(received, config.baseUrl)
		if (!request) return badTarget(headers)
		const path = pathOf(request)
		if (path === '/health' || path === '/ready')
			return Response.json({ status: 'starting' }, { status: 503, headers: { ...headers, 'Retry-After': '5', 'Cache-Control': 'no-store' } })
		return unavailableResponse(request, headers)
	}
}

/**
 * Opens a listening socket, or says which setting keeps it from opening (`StartupError`): a port in
 * use or needing privileges (`PORT`, `METRICS_PORT`), an address that is not this machine's (`HOST`).
 */
function listenOn(variable: 'PORT' | 'METRICS_PORT', host: string, port: number, open: () => Server<unknown>): Server<unknown> {
	try {
		return open()
	} catch (error) {
		throw listenProblem(error, variable, host, port)
	}
}

function listenProblem(error: unknown, variable: 'PORT' | 'METRICS_PORT', host: string, port: number): StartupError {
	const code = (error as { code?: unknown }).code
	if (code === 'EADDRINUSE')
		return new StartupError(variable, `port ${port} on ${host} is in use by another process (another Benchline?): stop it or choose another port`)
	if (code === 'EACCES') return new StartupError(variable, `port ${port} needs privileges this process does not have: choose a port from 1024 up`)
	// Bun says EINVAL for a name that does not resolve to an address here, EADDRNOTAVAIL for an address of another machine.
	if (variable === 'PORT' && (code === 'EADDRNOTAVAIL' || code === 'EINVAL' || code === 'ENOTFOUND'))
		return new StartupError(
			'HOST',
			`cannot listen on ${host}: it is not an address of this machine (use localhost, 0.0.0.0 for every interface, or an address of one of its interfaces)`,
		)
	return new StartupError(variable, `cannot listen on ${host} port ${port}: ${(error as Error).message}`)
}

/** Where it listens, in words: loopback only, or every interface. */
function listeningOn(host: string, port: number): string {
	const shown = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host
	const scope =
		host === 'localhost' || host.startsWith('127.') || host === '::1'
			? 'this machine only; HOST=0.0.0.0 accepts connections from the network'
			: host === '0.0.0.0' || host === '::'
				? 'every network interface'
				: 'this address only'
	return `http://${shown}:${port} (${scope})`
}

/**
 * Starts the HTTP server. SIGTERM/SIGINT: `/ready` answers 503 at once and the port keeps serving for
 * `SHUTDOWN_DRAIN_SECONDS`; then it refuses new connections, finishes the requests in flight and exits 0.
 * The port answers from the start: 503 (and `/ready` not ready) until the migrations are applied.
 */
export async function serve(config: Config) {
	const log = createLogger(config.logLevel)
	// An uncaught exception is a bug: it is logged, and the process ends (an orchestrator restarts it).
	process.on('uncaughtException', (error) => {
		log.error('uncaught exception', { error })
		process.exit(1)
	})
	const server = listenOn('PORT', config.host, config.port, () =>
		Bun.serve({ port: config.port, hostname: config.host, ...socketOptions(config), fetch: starting(config) }),
	)
	// Also opened before the database: a port in use stops start-up at once, not after the migrations.
	const metricsPort = config.metricsPort
	const metricsServer = metricsPort
		? listenOn('METRICS_PORT', '127.0.0.1', metricsPort, () => Bun.serve({ hostname: '127.0.0.1', port: metricsPort, fetch: starting(config) }))
		: undefined
	const deps = await createDeps({ config, log })
	if (deps.database.kind === 'pglite' && config.demo) {
		const demo = await createDemoWorkspace(deps)
		if (demo) for (const line of demo) console.log(line)
	}
	const app = createApp(deps)
	const stops = deps.registry.modules.map((m) => m.start?.(deps)).filter((s) => typeof s === 'function')
	server.reload(serverOptions(deps, app))
	metricsServer?.reload({ fetch: metricsOnly(deps) })
	log.info('Benchline is listening', {
		url: config.baseUrl,
		host: config.host,
		port: server.port,
		database: deps.database.kind,
		rateLimit: deps.limiter.mode(),
		metrics: deps.metrics.enabled,
		tracing: deps.tracing.enabled,
	})
	console.log(`Benchline is listening on ${listeningOn(config.host, server.port!)}`)
	console.log(
		`  public address: ${config.baseUrl}; database: ${deps.database.kind === 'pglite' ? `embedded, in ${config.dataDir}` : `PostgreSQL (pool ${config.databasePoolSize}, ${config.databasePoolMode} mode)`}`,
	)
	if (metricsServer) console.log(`  metrics: http://127.0.0.1:${metricsServer.port}/metrics (this machine only)`)
	if (config.metricsToken) console.log(`  metrics: ${config.baseUrl}/metrics with the METRICS_TOKEN bearer token`)
	if (config.tracing) console.log(`  traces: OTLP (${config.tracing.protocol}) to ${new URL(config.tracing.url).origin}`)

	let stopping = false
	const shutdown = async (signal: string) => {
		if (stopping) process.exit(1)
		stopping = true
		// `/ready` answers 503 from now on, while the port keeps serving for the drain period: a load
		// balancer polling it takes the instance out before connections are refused (`/health` stays 200).
		deps.lifecycle.drain()
		log.info('shutting down', { signal, drainSeconds: config.shutdownDrainSeconds })
		const deadline = setTimeout(() => process.exit(1), 15_000)
		await Bun.sleep(config.shutdownDrainSeconds * 1000)
		await server.stop(false)
		metricsServer?.stop(true)
		for (const stop of stops) await stop?.()
		await closeDeps(deps)
		clearTimeout(deadline)
		process.exit(0)
	}
	process.on('SIGTERM', () => void shutdown('SIGTERM'))
	process.on('SIGINT', () => void shutdown('SIGINT'))
	return { server, deps }
}

if (import.meta.main) {
	try {
		await serve(loadConfig(process.env, modules))
	} catch (error) {
		if (
			error instanceof ConfigError ||
			error instanceof StartupError ||
			error instanceof DatabaseLockedError ||
			error instanceof RegistryError ||
			error instanceof SchemaError ||
			error instanceof SessionBoundsError
		) {
			console.error((error as Error).message)
			process.exit(1)
		}
		throw error
	}
}
