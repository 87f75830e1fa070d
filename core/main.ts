/**
 * Composition root: configuration → database → module registry → dependencies → HTTP app.
 * The only file in `core/` that imports `modules/`.
 */
import { sql } from 'drizzle-orm'
import { decodeBase64, encodeBase64 } from '@oslojs/encoding'
import { modules } from '../modules/index.ts'
import { DatabaseLockedError, openDatabase, type Database } from '../db/client.ts'
import { SchemaError } from '../db/migrate.ts'
import { serverSettings } from '../db/core-tables.ts'
import { buildApp } from './app.ts'
import { ConfigError, loadConfig, type Config } from './config.ts'
import type { AppDeps } from './deps.ts'
import { memoryLimiter, redisLimiter } from './http/rate-limit.ts'
import { answerWhileAvailable, unavailableResponse, watchDatabase } from './http/availability.ts'
import { notePeer } from './http/client-address.ts'
import { securityHeaders } from './http/security-headers.ts'
import { createLogger, type Logger } from './log.ts'
import { mcpRoute } from './mcp/handler.ts'
import type { ModuleDef } from './module.ts'
import { compilePermissions } from './permissions.ts'
import { buildRegistry, RegistryError } from './registry.ts'
import { createDemoWorkspace } from './demo.ts'

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

/** Everything routes, tools, commands and services need, built once. */
export async function createDeps(options: CreateDepsOptions): Promise<AppDeps> {
	const { config } = options
	const log = options.log ?? createLogger(config.logLevel)
	const registry = buildRegistry(options.moduleList ?? modules)
	for (const w of registry.warnings) log.warn(w)
	// Settings of modules `loadConfig` was not given (tests, scripts) are checked here, before anything opens.
	const settingProblems = config.settings.problems(registry.modules.flatMap((m) => (m.settings ? [m.settings] : [])))
	if (settingProblems.length) throw new ConfigError(settingProblems)
	const database = options.database ?? (await openDatabase(config))
	// Also for a database handed in: a module list of its own (tests) gets its tables checked.
	const list = options.moduleList ?? modules
	const done = migrated.get(database) ?? new Set()
	if (!done.has(list)) {
		await database.migrate(registry.modules)
		migrated.set(database, done.add(list))
	}
	const limiter = config.redisUrl ? await redisLimiter(config.redisUrl, config.rateLimitPerMinute, log) : memoryLimiter(config.rateLimitPerMinute)
	return {
		config,
		database,
		db: database.db,
		log,
		permissions: compilePermissions(registry.modules),
		registry,
		limiter,
		secret: await serverSecret(database),
		availability: watchDatabase(database, log),
		now: options.now ?? (() => new Date()),
	}
}

export function createApp(deps: AppDeps) {
	return buildApp(deps, [(kit) => mcpRoute(deps, kit)])
}

/**
 * Serves the app over HTTP. Each request is handed to the app with the address of the connection
 * it came on (`notePeer`): every per-address limit counts by it (core/http/client-address.ts).
 */
export function listen(deps: AppDeps, app: ReturnType<typeof createApp>, options: { port: number; hostname?: string }) {
	const headers = securityHeaders(deps.config.https)
	return Bun.serve({
		port: options.port,
		hostname: options.hostname,
		fetch: (request, server) => {
			notePeer(request, server.requestIP(request)?.address)
			// A request waiting on the database when it stops answering gets its 503 at once (availability.ts).
			return answerWhileAvailable(deps.availability, app.handle(request), () => unavailableResponse(request, headers))
		},
		maxRequestBodySize: 16 * 1024 * 1024,
		idleTimeout: deps.config.httpIdleTimeout,
		error: (error) => {
			deps.log.error('server error', { error })
			return new Response('Internal error', { status: 500 })
		},
	})
}

/** Starts the HTTP server; SIGTERM/SIGINT finish in-flight requests, refuse new ones and exit 0. */
export async function serve(config: Config) {
	const log = createLogger(config.logLevel)
	// An uncaught exception is a bug: it is logged, and the process ends (an orchestrator restarts it).
	process.on('uncaughtException', (error) => {
		log.error('uncaught exception', { error })
		process.exit(1)
	})
	const deps = await createDeps({ config, log })
	if (deps.database.kind === 'pglite' && config.demo) {
		const demo = await createDemoWorkspace(deps)
		if (demo) for (const line of demo) console.log(line)
	}
	const app = createApp(deps)
	const stops = deps.registry.modules.map((m) => m.start?.(deps)).filter((s) => typeof s === 'function')
	const server = listen(deps, app, { port: config.port })
	log.info('Benchline is listening', { url: config.baseUrl, port: server.port, database: deps.database.kind, rateLimit: deps.limiter.mode() })
	console.log(`Benchline is running at ${config.baseUrl} (database: ${deps.database.kind === 'pglite' ? `embedded, in ${config.dataDir}` : 'PostgreSQL'})`)

	let stopping = false
	const shutdown = async (signal: string) => {
		if (stopping) process.exit(1)
		stopping = true
		log.info('shutting down', { signal })
		const deadline = setTimeout(() => process.exit(1), 15_000)
		await server.stop(false)
		for (const stop of stops) await stop?.()
		deps.availability.stop()
		await deps.limiter.close()
		await deps.database.close()
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
		if (error instanceof ConfigError || error instanceof DatabaseLockedError || error instanceof RegistryError || error instanceof SchemaError) {
			console.error((error as Error).message)
			process.exit(1)
		}
		throw error
	}
}
