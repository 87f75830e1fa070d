/**
 * Prometheus metrics (prom-client), served at `/metrics` with `METRICS_TOKEN` as a bearer token and/or
 * on `METRICS_PORT` bound to loopback (core/http/metrics-route.ts); with neither set they are off and
 * nothing is counted (`noMetrics`: no cost on the hot paths).
 *
 * Every label value comes from a bounded set the code knows: route templates (`/jobs/:id`, never the
 * path asked for), HTTP methods, status codes, tool names, outcomes, doors, and the names modules give
 * their queues and pools. Never a person, a record id, a workspace or free text:
 * tests/metrics.test.ts drives traffic with ids and hostile paths and checks every label value.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { AppDeps } from './deps.ts'
import type { CredentialDoor, Metrics, ToolOutcome } from './types/metrics.ts'

export type { CredentialDoor, Metrics, ToolOutcome }
// Declared with the module contract, which lists them in `ModuleDef.queues` and `pools`.
export type { PoolDef, QueueDef } from './module.ts'

/** Metrics off: every call does nothing. */
export const noMetrics: Metrics = {
	enabled: false,
	httpRequest() {},
	toolCall() {},
	credentialFailure() {},
	signInFailure() {},
	render: async () => ({ contentType: 'text/plain', text: '' }),
}

/** Bounded label values: anything else is counted under `other`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/** Which door a 429 was answered on (from the route template: bounded). */
function doorOfRoute(route: string): string {
	if (route === '/metrics') return 'metrics'
	if (route.startsWith('/api/mcp')) return 'mcp'
	if (route.startsWith('/api/')) return 'rest'
	if (route.startsWith('/oauth') || route.startsWith('/.well-known')) return 'oauth'
	if (route.startsWith('/scim/')) return 'scim'
	return 'portal'
}

/** How long a queue's measurement may take before the scrape goes on without that queue. */
export const MEASURE_TIMEOUT_MS = 2000

/** Seconds: from a cheap answer from memory (1 ms) to a request cut by `HTTP_IDLE_TIMEOUT`. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

const NOT_KEPT_BY_BUN = [
	'nodejs_active_resources',
	'nodejs_active_resources_total',
	'nodejs_active_handles',
	'nodejs_active_handles_total',
	'nodejs_active_requests',
	'nodejs_active_requests_total',
]

export function createMetrics(deps: () => AppDeps): Metrics {
	const registry = new Registry()
	registry.setDefaultLabels({})
	// Process memory, CPU, event-loop delay (prom-client's own `process_*` and `nodejs_*` series).
	collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 })
	// Node's libuv handle and request counts, which Bun does not keep (always 0, no types): noise, and
	// their `_total` gauges break Prometheus' naming rule (promtool check metrics refuses them).
	for (const name of NOT_KEPT_BY_BUN) registry.removeSingleMetric(name)
	const registers = [registry]

	const http = new Histogram({
		name: 'benchline_http_request_duration_seconds',
		help: 'HTTP requests answered, by method, route template and status',
		labelNames: ['method', 'route', 'status'],
		buckets: DURATION_BUCKETS,
		registers,
	})
	const rateLimited = new Counter({
		name: 'benchline_rate_limit_refusals_total',
		help: 'Requests refused with 429 (rate limits, failed-credential budgets, sign-in attempts), by door',
		labelNames: ['door'],
		registers,
	})
	const tools = new Histogram({
		name: 'benchline_mcp_tool_call_duration_seconds',
		help: 'MCP tool calls, by tool and outcome (ok, error, timeout)',
		labelNames: ['tool', 'outcome'],
		buckets: DURATION_BUCKETS,
		registers,
	})
	const credentials = new Counter({
		name: 'benchline_credential_failures_total',
		help: 'Credentials presented that failed (malformed, unknown, revoked, expired), by door',
		labelNames: ['door'],
		registers,
	})
	const signIn = new Counter({ name: 'benchline_sign_in_failures_total', help: 'Portal sign-ins refused for a wrong e-mail or password', registers })

	// Read when scraped: the database pool, the modules' queues and worker pools.
	new Gauge({
		name: 'benchline_db_pool_connections',
		help: 'Database connections of this instance in use, the pool size, and statements waiting for a connection (PostgreSQL)',
		labelNames: ['state'],
		registers,
		collect() {
			const pool = deps().database.pool?.()
			if (!pool) return
			this.set({ state: 'size' }, pool.size)
			this.set({ state: 'in_use' }, pool.inUse)
			this.set({ state: 'waiting' }, pool.waiting)
		},
	})
	// Both queue gauges come from one measurement per scrape: prom-client calls every metric's collect in
	// one synchronous loop, so both share the measurement in flight. It is forgotten the moment it settles
	// (a timer could fire after the next scrape had begun, which would then report this one's numbers).
	let measuring: Promise<{ name: string; depth: number; oldestAgeSeconds: number }[]> | undefined
	const measureQueues = () =>
		(measuring ??= (async () => {
			const d = deps()
			const queues = d.registry.modules.flatMap((m) => m.queues ?? [])
			// A queue that cannot be measured now (its table locked, the database away or stalled) is left out
			// of this scrape: a measurement not answered within MEASURE_TIMEOUT_MS is given up, so one hung
			// query never holds the whole exposition (the pool and process series matter most in an outage).
			const measured = await Promise.all(
				queues.map((q) => {
					let timer: ReturnType<typeof setTimeout> | undefined
					const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), MEASURE_TIMEOUT_MS)))
					const measuring = q.measure(d).then(
						(m) => ({ name: q.name, ...m }),
						() => null,
					)
					return Promise.race([measuring, late]).finally(() => clearTimeout(timer))
				}),
			)
			return measured.filter((m) => m !== null)
		})().finally(() => (measuring = undefined)))
	new Gauge({
		name: 'benchline_queue_depth',
		help: 'Entries waiting in a queue',
		labelNames: ['queue'],
		registers,
		async collect() {
			// Only what was measured now: a queue that could not be measured is absent, never its last value.
			const measured = await measureQueues()
			this.reset()
			for (const q of measured) this.set({ queue: q.name }, q.depth)
		},
	})
	new Gauge({
		name: 'benchline_queue_oldest_age_seconds',
		help: 'How long the entry of a queue due longest ago has waited since it became due (0 when none is due)',
		labelNames: ['queue'],
		registers,
		async collect() {
			const measured = await measureQueues()
			this.reset()
			for (const q of measured) this.set({ queue: q.name }, q.oldestAgeSeconds)
		},
	})
	new Gauge({
		name: 'benchline_pool_workers',
		help: 'Bounded worker pools of this instance (e.g. the file readers): workers busy and tasks queued',
		labelNames: ['pool', 'state'],
		registers,
		collect() {
			for (const pool of deps().registry.modules.flatMap((m) => m.pools ?? [])) {
				const { busy, queued } = pool.measure()
				this.set({ pool: pool.name, state: 'busy' }, busy)
				this.set({ pool: pool.name, state: 'queued' }, queued)
			}
		},
	})

	return {
		enabled: true,
		httpRequest(method, route, status, seconds) {
			const template = route || 'unmatched'
			http.observe({ method: METHODS.has(method) ? method : 'other', route: template, status: String(status) }, seconds)
			if (status === 429) rateLimited.inc({ door: doorOfRoute(template) })
		},
		toolCall: (tool, outcome, seconds) => tools.observe({ tool, outcome }, seconds),
		credentialFailure: (door) => credentials.inc({ door }),
		signInFailure: () => signIn.inc(),
		render: async () => ({ contentType: registry.contentType, text: await registry.metrics() }),
	}
}
