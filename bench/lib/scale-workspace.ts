/**
 * The set-up the scale benchmarks share: a throwaway database on the local PostgreSQL server (or
 * the one REUSE names), the real app on it, and one workspace with an owner and a hiring manager,
 * each with a personal token. `cleanup()` closes everything and drops the database (KEEP=1 keeps it).
 */
import postgres from 'postgres'
import { loadConfig } from '../../core/config.ts'
import { createLogger } from '../../core/log.ts'
import { createApp, createDeps } from '../../core/main.ts'
import { openDatabase, type Database } from '../../db/client.ts'
import { addPerson, createPersonalToken, createWorkspace, operatorActor, personActor, type Workspace } from '../../modules/auth/index.ts'

const env = process.env
/** The owner's and the hiring manager's password (the page scenarios sign in with it). */
export const SCALE_PASSWORD = 'correct horse battery'

export async function openScaleWorkspace(options: { pgMax: number }) {
	const shared = env.SHARED_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
	const dbName = env.REUSE ?? `bl_scale_${process.pid}`
	const url = shared.replace(/\/[^/]*$/, `/${dbName}`)
	const admin = postgres(shared, { max: 1, onnotice: () => {} })
	if (!env.REUSE) await admin.unsafe(`create database ${dbName}`)
	let database: Database | undefined
	let pg: ReturnType<typeof postgres> | undefined
	const cleanup = async () => {
		await pg?.end().catch(() => {})
		await database?.close().catch(() => {})
		if (!env.KEEP && !env.REUSE) await admin.unsafe(`drop database if exists ${dbName} with (force)`).catch(() => {})
		await admin.end()
	}
	process.on('SIGINT', () => void cleanup().then(() => process.exit(130)))
	try {
		const config = loadConfig({
			...env,
			DATABASE_URL: url,
			BASE_URL: 'http://localhost:3000',
			RATE_LIMIT_PER_MINUTE: '1000000',
			REDIS_URL: '',
			LOG_LEVEL: 'warn',
			DEMO: 'off',
		})
		database = await openDatabase(config)
		const deps = await createDeps({ config, database, log: createLogger('warn') })
		const app = createApp(deps)
		pg = postgres(url, { max: options.pgMax, onnotice: () => {} })
		const db = pg
		const reusedWs = env.REUSE ? (await db<Workspace[]>`select id, slug, name from workspaces where slug like 'scale-%' limit 1`)[0] : undefined
		const ws = reusedWs ?? (await createWorkspace(deps, { slug: `scale-${process.pid}`, name: 'Scale Staffing' }))
		if (!reusedWs) {
			await addPerson(deps, operatorActor(ws), ws, { email: `owner-${process.pid}@scale.test`, name: 'Scale Owner', role: 'owner', password: SCALE_PASSWORD })
			await addPerson(deps, operatorActor(ws), ws, {
				email: `hm-${process.pid}@scale.test`,
				name: 'Scale HM',
				role: 'hiring_manager',
				password: SCALE_PASSWORD,
			})
		}
		const person = async (role: string) => {
			const [row] = await db<
				{ email: string }[]
			>`select u.email from users u join memberships m on m.user_id = u.id where m.workspace_id = ${ws.id} and m.role = ${role} limit 1`
			const actor = await personActor(deps, ws.slug, row!.email)
			return { userId: actor.userId!, email: row!.email, token: (await createPersonalToken(deps, actor, { name: 'bench' })).token }
		}
		return { deps, app, pg: db, ws, reused: Boolean(reusedWs), owner: await person('owner'), hm: await person('hiring_manager'), cleanup }
	} catch (error) {
		await cleanup()
		throw error
	}
}

/** MCP `tools/call` through the app in-process (token check, rate limit, SDK, JSON); throws on an HTTP or tool error. */
export function mcpCaller(app: { handle(request: Request): Response | Promise<Response> }) {
	let rpc = 0
	const callTool = async (token: string, name: string, args: Record<string, unknown>) => {
		const res = await app.handle(
			new Request('http://localhost/api/mcp', {
				method: 'POST',
				headers: {
					authorization: `Bearer ${token}`,
					'content-type': 'application/json',
					accept: 'application/json, text/event-stream',
					'mcp-protocol-version': '2025-06-18',
				},
				body: JSON.stringify({ jsonrpc: '2.0', id: ++rpc, method: 'tools/call', params: { name, arguments: args } }),
			}),
		)
		const text = await res.text()
		if (res.status !== 200 || text.includes('"isError":true')) throw new Error(`${name} ${JSON.stringify(args)} failed: ${res.status} ${text.slice(0, 300)}`)
		return text
	}
	/** The tool's structured result. */
	const structured = (text: string) => JSON.parse(text.slice(text.indexOf('{'))).result.structuredContent
	/** The cursor of the tool's first page. */
	const firstCursor = async (token: string, name: string, args: Record<string, unknown>) => structured(await callTool(token, name, args)).nextCursor as string
	return { callTool, structured, firstCursor }
}

/**
 * Runs `run` WARMUP times unmeasured, then CALLS times one after another; its latency percentiles in
 * ms and how many calls were measured. With `budgetMs`, a slow scenario stops early: warming up
 * takes at most a fifth of the budget, measuring the rest (at least 20 calls), so one scenario of
 * seconds a call does not hold up the run for an hour; `calls` then says how many were measured.
 */
export async function timeCalls(
	run: (i: number) => Promise<unknown>,
	warmup: number,
	calls: number,
	budgetMs = Infinity,
): Promise<{ p50: number; p95: number; p99: number; calls: number }> {
	const start = performance.now()
	for (let i = 0; i < warmup && performance.now() - start < budgetMs / 5; i++) await run(i)
	const times: number[] = []
	for (let i = 0; i < calls && (times.length < 20 || performance.now() - start < budgetMs); i++) {
		const s = performance.now()
		await run(i + warmup)
		times.push(performance.now() - s)
	}
	times.sort((a, b) => a - b)
	const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!
	return { p50: q(0.5), p95: q(0.95), p99: q(0.99), calls: times.length }
}
