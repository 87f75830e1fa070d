/**
 * Steady load against a running server (publishes through the REST API, `create_job` and
 * `list_jobs` through the MCP endpoint), the fixtures it needs, and the check afterwards that
 * every acknowledged write is in the database exactly once (with exactly one activity row).
 */
import { appendFileSync } from 'node:fs'
import { sql } from 'drizzle-orm'
import { loadConfig } from '../../core/config.ts'
import type { AppDeps } from '../../core/deps.ts'
import { createLogger } from '../../core/log.ts'
import { closeDeps, createDeps } from '../../core/main.ts'
import { addPerson, createPersonalToken, createWorkspace, operatorActor, personActor } from '../../modules/auth/index.ts'
import { createKey, createVendor } from '../../modules/vendors/index.ts'
import { scratchPostgresDatabase, startServer, TEST_LOG, type ServerProcess } from './processes.ts'
import { messageOf } from '../mcp/rpc.ts'

/** Dependencies on a given PostgreSQL database, for creating fixtures and checking results. */
export async function depsOn(databaseUrl: string): Promise<{ deps: AppDeps; close(): Promise<void> }> {
	const config = loadConfig({ DATABASE_URL: databaseUrl, BASE_URL: 'http://localhost:3000', DEMO: 'off', LOG_LEVEL: 'warn' })
	const deps = await createDeps({ config, log: createLogger('warn', (line) => appendFileSync(TEST_LOG, line + '\n')) })
	return {
		deps,
		close: () => closeDeps(deps),
	}
}

export interface Tenant {
	workspaceId: string
	slug: string
	vendorId: string
	/** Several keys of one vendor: each has its own rate budget. */
	vendorKeys: string[]
	owner: { email: string; password: string }
	/** Personal tokens of the owner. */
	tokens: string[]
}

export async function seedTenant(deps: AppDeps, o: { keys?: number; tokens?: number } = {}): Promise<Tenant> {
	const tag = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`
	const ws = await createWorkspace(deps, { slug: `rel${tag}`, name: 'Reliability Staffing' })
	const operator = operatorActor(ws)
	const vendor = await createVendor(deps, operator, { name: 'Load Vendor' })
	const vendorKeys = [vendor.apiKey]
	for (let i = 1; i < (o.keys ?? 1); i++) vendorKeys.push((await createKey(deps, operator, vendor.vendorId)).apiKey)
	const owner = { email: `owner-${tag}@example.test`, password: 'correct horse battery staple' }
	await addPerson(deps, operator, ws, { email: owner.email, name: 'Reliability Owner', role: 'owner', password: owner.password })
	const actor = await personActor(deps, ws.slug, owner.email)
	const tokens: string[] = []
	for (let i = 0; i < (o.tokens ?? 1); i++)
		tokens.push((await createPersonalToken(deps, { ...actor, credential: { kind: 'session', id: 'seed', name: 'seed' } }, { name: `load token ${i}` })).token)
	return { workspaceId: ws.id, slug: ws.slug, vendorId: vendor.vendorId, vendorKeys, owner, tokens }
}

/** A server process on a scratch PostgreSQL database holding one seeded tenant; `stop` kills it and drops the database. */
export async function seededServer(
	env: Record<string, string>,
): Promise<{ server: ServerProcess; tenant: Tenant; databaseUrl: string; stop(): Promise<void> }> {
	const database = await scratchPostgresDatabase()
	const fixtures = await depsOn(database.url)
	const tenant = await seedTenant(fixtures.deps)
	await fixtures.close()
	const server = await startServer({ DATABASE_URL: database.url, ...env })
	return {
		server,
		tenant,
		databaseUrl: database.url,
		stop: async () => {
			server.kill('SIGKILL')
			await server.exited
			await database.drop()
		},
	}
}

export type Kind = 'publish' | 'create_job' | 'list_jobs'

export interface Outcome {
	kind: Kind
	seq: number
	start: number
	end: number
	/** HTTP status; 0 when no answer came (connection refused or reset, timeout). */
	status: number
	retryAfter: string | null
	/** The write was acknowledged (2xx publish, successful create_job). */
	acked: boolean
	/** vendorJobId (publish) or title (create_job). */
	key?: string
	/** Tool error text, or the network error. */
	error?: string
	servedBy?: string | null
}

const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18' }

/** The JSON-RPC message of a response sent as JSON or as one SSE event. */
export const rpcMessage = messageOf

export interface RequestPlan {
	baseUrl: string
	tenant: Tenant
	/** Prefix making this run's ids and titles unique. */
	run: string
	timeoutMs?: number
}

/** One request of the given kind; never throws. */
export async function oneRequest(p: RequestPlan, kind: Kind, seq: number): Promise<Outcome> {
	const start = Date.now()
	const t = p.tenant
	let key: string | undefined
	let init: RequestInit
	let path: string
	if (kind === 'publish') {
		key = `${p.run}-${seq}`
		path = '/api/v1/jobs'
		init = {
			method: 'POST',
			headers: { authorization: `Bearer ${t.vendorKeys[seq % t.vendorKeys.length]}`, 'content-type': 'application/json' },
			body: JSON.stringify({ vendorJobId: key, title: `Load job ${key}`, location: 'Austin, TX', mustHave: ['Java'] }),
		}
	} else {
		path = '/api/mcp'
		key = kind === 'create_job' ? `MCP ${p.run} ${seq}` : undefined
		const args = kind === 'create_job' ? { title: key } : { limit: 5 }
		init = {
			method: 'POST',
			headers: { authorization: `Bearer ${t.tokens[seq % t.tokens.length]}`, ...MCP_HEADERS },
			body: JSON.stringify({ jsonrpc: '2.0', id: seq, method: 'tools/call', params: { name: kind, arguments: args } }),
		}
	}
	try {
		const res = await fetch(p.baseUrl + path, { ...init, signal: AbortSignal.timeout(p.timeoutMs ?? 30_000) })
		const text = await res.text()
		const base = {
			kind,
			seq,
			start,
			end: Date.now(),
			status: res.status,
			retryAfter: res.headers.get('retry-after'),
			key,
			servedBy: res.headers.get('x-served-by'),
		}
		if (kind === 'publish') return { ...base, acked: res.status === 200 || res.status === 201, error: res.ok ? undefined : text.slice(0, 200) }
		const message = rpcMessage(text)
		const result = message?.result
		const acked = res.status === 200 && Boolean(result) && !result.isError
		const error = acked ? undefined : (result?.content?.[0]?.text ?? message?.error?.message ?? text.slice(0, 200))
		return { ...base, acked: kind === 'create_job' && acked, error }
	} catch (error) {
		return { kind, seq, start, end: Date.now(), status: 0, retryAfter: null, acked: false, key, error: String((error as Error).message ?? error) }
	}
}

export interface Load {
	readonly outcomes: Outcome[]
	/** Requests sent so far. */
	sent(): number
	/** Stops sending and waits for the requests in flight. */
	stop(): Promise<Outcome[]>
}

/** Sends `rate` requests per second (publish, create_job, list_jobs in turn) until stopped. */
export function startLoad(p: RequestPlan & { rate: number; kinds?: Kind[] }): Load {
	const kinds = p.kinds ?? ['publish', 'create_job', 'list_jobs']
	const outcomes: Outcome[] = []
	const inFlight = new Set<Promise<void>>()
	let seq = 0
	const timer = setInterval(() => {
		if (inFlight.size >= 200) return // the server is not answering at all: do not pile up sockets
		const n = seq++
		const request = oneRequest(p, kinds[n % kinds.length]!, n).then((o) => void outcomes.push(o))
		inFlight.add(request)
		request.finally(() => inFlight.delete(request))
	}, 1000 / p.rate)
	return {
		outcomes,
		sent: () => seq,
		stop: async () => {
			clearInterval(timer)
			await Promise.all(inFlight)
			return outcomes.sort((a, b) => a.seq - b.seq)
		},
	}
}

export interface WriteCheck {
	acked: number
	/** Acknowledged writes not in the database. */
	missing: string[]
	/** Keys stored more than once, or with other than one activity row. */
	duplicated: string[]
}

/** Every acknowledged publish and create_job is in the database exactly once, with exactly one activity row. */
export async function checkWrites(deps: AppDeps, tenant: Tenant, outcomes: Outcome[]): Promise<WriteCheck> {
	const rows = await deps.database.rows<{ key: string; n: number; acts: number }>(sql`
		select coalesce(j.vendor_job_id, j.title) as key, count(*)::int as n,
			(select count(*)::int from activity a where a.target_type = 'job' and a.target_id = min(j.id) and a.action in ('job.published', 'job.created')) as acts
		from jobs j where j.workspace_id = ${tenant.workspaceId}
		group by coalesce(j.vendor_job_id, j.title)`)
	const stored = new Map(rows.map((r) => [r.key, r]))
	const acked = outcomes.filter((o) => o.acked && o.key)
	const missing = acked.filter((o) => !stored.has(o.key!)).map((o) => o.key!)
	const duplicated = rows.filter((r) => r.n !== 1 || r.acts !== 1).map((r) => `${r.key} (${r.n} rows, ${r.acts} activity rows)`)
	return { acked: acked.length, missing, duplicated }
}

/** A one-line summary of outcomes by status (for messages and the bench report). */
export function summarize(outcomes: Outcome[]): Record<string, number> {
	const counts: Record<string, number> = {}
	for (const o of outcomes) {
		const k =
			o.status === 0 ? 'no answer' : o.status === 200 && o.kind !== 'publish' && !o.acked && o.kind === 'create_job' ? `200 tool error` : String(o.status)
		counts[k] = (counts[k] ?? 0) + 1
	}
	return counts
}

/** Latency percentile in ms. */
export function percentile(values: number[], p: number): number {
	if (!values.length) return 0
	const sorted = [...values].sort((a, b) => a - b)
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}
