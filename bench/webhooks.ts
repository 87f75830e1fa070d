/**
 * bench/webhooks — issue 27: webhook deliveries per second to a local receiver, and the delay from a
 * change to its delivery (p50/p99) under a publish load.
 *
 *   npm run bench:webhooks          (= bun bench/webhooks.ts)
 *
 * One run:
 *  1. creates a throwaway database on the PostgreSQL server at SHARED_PG_URL (dropped at the end), a
 *     workspace, a vendor and ENDPOINTS (8) workspace endpoints, all pointing at a receiver;
 *  2. starts the receiver (its own process: `bun bench/webhooks-receiver.ts`, answering 204 at once and
 *     keeping each arrival's time) and the real server (`bun core/main.ts`, WEBHOOKS_ALLOW_PRIVATE=on
 *     so loopback is allowed; its event consumers and webhook worker run as in production);
 *  3. throughput: writes BACKLOG (5,000) deliveries due now, spread over the endpoints, in one
 *     statement, and measures from that commit to the last arrival at the receiver: deliveries/s
 *     (signing, the address check, the HTTP exchange, recording the outcome; at most 4 in flight per
 *     endpoint and 32 per instance);
 *  4. delay under load: PUBLISH_RATE (25) publishes a second of a new job (POST /api/v1/jobs, each
 *     writing a job.published event), sent on schedule (an open loop) for DURATION (20) seconds;
 *     DELAY_ENDPOINTS (2) of the endpoints subscribe to job.published, so each publish becomes that many
 *     deliveries (the rate stays below the throughput measured in 3, or the delay is only the backlog). The delay of a delivery is its
 *     arrival at the receiver minus the event's time (the publish transaction's, in the body's
 *     `timestamp`); p50 and p99 over every delivery of the run. It includes the consumer's poll
 *     (250 ms when idle) and the worker's (500 ms when idle), which a busy loop skips.
 *
 * The machine's load average is printed with the numbers: on a machine other work shares, they are
 * that machine's, not the code's alone.
 *
 * Settings (environment): ENDPOINTS=8 BACKLOG=5000 PUBLISH_RATE=25 DELAY_ENDPOINTS=2 DURATION=20
 * SHARED_PG_URL=postgres://postgres@127.0.0.1:5432/postgres
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import postgres from 'postgres'
import { sql } from 'drizzle-orm'
import { loadConfig } from '../core/config.ts'
import { createLogger } from '../core/log.ts'
import { createDeps } from '../core/main.ts'
import { openDatabase } from '../db/client.ts'
import { createWorkspace, operatorActor } from '../modules/auth/index.ts'
import { createVendor } from '../modules/vendors/index.ts'
import { addEndpoint } from '../modules/webhooks/index.ts'

const env = process.env
const ROOT = resolve(import.meta.dir, '..')
const int = (name: string, fallback: number) => (env[name] ? Number(env[name]) : fallback)
const ENDPOINTS = int('ENDPOINTS', 8)
const BACKLOG = int('BACKLOG', 5_000)
const PUBLISH_RATE = int('PUBLISH_RATE', 25)
const DELAY_ENDPOINTS = int('DELAY_ENDPOINTS', 2)
const DURATION = int('DURATION', 20)
const SHARED = env.SHARED_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const work = mkdtempSync(join(tmpdir(), 'bl-bench-webhooks-'))
const children = new Set<Bun.Subprocess>()
const dbName = `bench_webhooks_${process.pid}`
const admin = postgres(SHARED, { max: 1, onnotice: () => {} })
const dbUrl = (() => {
	const u = new URL(SHARED)
	u.pathname = `/${dbName}`
	return u.toString()
})()

async function freePort(): Promise<number> {
	const s = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
	const port = s.port
	s.stop(true)
	return port
}

async function healthy(base: string, path: string, proc: Bun.Subprocess, name: string) {
	const t0 = performance.now()
	for (;;) {
		if (proc.exitCode !== null) throw new Error(`${name} exited ${proc.exitCode}: ${readFileSync(join(work, `${name}.err`), 'utf8').slice(0, 800)}`)
		if (
			await fetch(`${base}${path}`).then(
				(r) => r.ok,
				() => false,
			)
		)
			return
		if (performance.now() - t0 > 180_000) throw new Error(`${name}: not up in 180 s`)
		await Bun.sleep(50)
	}
}

function spawn(name: string, args: string[], extra: Record<string, string>) {
	const proc = Bun.spawn([process.execPath, ...args], {
		cwd: ROOT,
		env: { ...env, ...extra },
		stdout: Bun.file(join(work, `${name}.log`)),
		stderr: Bun.file(join(work, `${name}.err`)),
	})
	children.add(proc)
	return proc
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN
const load = () =>
	loadavg()
		.map((l) => l.toFixed(1))
		.join(' / ')

async function arrivals(receiver: string, all = false): Promise<{ n: number; list: [number, number][] }> {
	return (await fetch(`${receiver}/stats${all ? '?all' : ''}`)).json() as Promise<{ n: number; list: [number, number][] }>
}

async function main() {
	console.log(`bench/webhooks: ${cpus().length} CPUs (${cpus()[0]?.model}), load average ${load()} (1/5/15 min)`)
	await admin.unsafe(`create database ${dbName}`)
	const config = loadConfig({
		...env,
		DATABASE_URL: dbUrl,
		BASE_URL: 'http://localhost:3000',
		REDIS_URL: '',
		LOG_LEVEL: 'warn',
		DEMO: 'off',
		WEBHOOKS_ALLOW_PRIVATE: 'on',
	})
	const database = await openDatabase(config)
	const { modules } = await import('../modules/index.ts')
	await database.migrate(modules)
	const deps = await createDeps({ config, database, log: createLogger('warn') })

	const receiverPort = await freePort()
	const receiver = `http://127.0.0.1:${receiverPort}`
	const rproc = spawn('receiver', ['bench/webhooks-receiver.ts'], { RECEIVER_PORT: String(receiverPort) })
	await healthy(receiver, '/stats', rproc, 'receiver')

	const ws = await createWorkspace(deps, { slug: `hooks-${Date.now().toString(36)}`, name: 'Webhooks Bench' })
	const vendor = await createVendor(deps, operatorActor(ws), { name: 'Bench Vendor' })
	const endpoints: string[] = []
	// DELAY_ENDPOINTS of them hear of every publish (the delay run); the others of closings only (none happen there).
	for (let i = 0; i < ENDPOINTS; i++)
		endpoints.push(
			(await addEndpoint(deps, operatorActor(ws), { url: `${receiver}/hook/${i}`, events: [i < DELAY_ENDPOINTS ? 'job.published' : 'job.closed'] })).endpoint
				.id,
		)

	const port = await freePort()
	const base = `http://127.0.0.1:${port}`
	const server = spawn('server', ['core/main.ts'], {
		PORT: String(port),
		BASE_URL: base,
		DATABASE_URL: dbUrl,
		LOG_LEVEL: 'warn',
		RATE_LIMIT_PER_MINUTE: '1000000',
		REDIS_URL: '',
		DEMO: 'off',
		WEBHOOKS_ALLOW_PRIVATE: 'on',
	})
	await healthy(base, '/health', server, 'server')

	// 1. Throughput: a backlog due now.
	const body = JSON.stringify({ type: 'webhook.test', timestamp: new Date().toISOString(), data: { bench: true } })
	const before = (await arrivals(receiver)).n
	await database.rows(sql`insert into webhook_deliveries (id, endpoint_id, workspace_id, type, body)
		select 'msg_bench' || g, (${sql.raw(`array[${endpoints.map((e) => `'${e}'`).join(',')}]`)})[1 + g % ${ENDPOINTS}], ${ws.id}, 'webhook.test', ${body}
		from generate_series(1, ${BACKLOG}::int) g`)
	const t0 = performance.now()
	const loadBefore = load()
	for (;;) {
		if ((await arrivals(receiver)).n - before >= BACKLOG) break
		if (performance.now() - t0 > 600_000) throw new Error('the backlog was not delivered in 10 minutes')
		await Bun.sleep(50)
	}
	const seconds = (performance.now() - t0) / 1000
	const rate = BACKLOG / seconds
	console.log(
		`throughput: ${BACKLOG} deliveries to ${ENDPOINTS} endpoints in ${seconds.toFixed(2)} s = ${rate.toFixed(0)} deliveries/s (load average before ${loadBefore}, after ${load()})`,
	)

	// 2. Delay from the change to the delivery, under a publish load: PUBLISH_RATE publishes a second, sent
	// on schedule whether or not the previous ones have been answered (an open loop, as real traffic is).
	const start = (await arrivals(receiver)).n
	let published = 0
	let failed = 0
	const key = vendor.apiKey
	const publish = async (i: number) => {
		const res = await fetch(`${base}/api/v1/jobs`, {
			method: 'POST',
			headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
			body: JSON.stringify({ vendorJobId: `B-${i}`, title: `Java developer ${i}` }),
		})
		await res.arrayBuffer()
		if (res.status === 201) published++
		else failed++
	}
	const loadStart = load()
	const sent: Promise<void>[] = []
	const tStart = performance.now()
	for (let i = 0; i < PUBLISH_RATE * DURATION; i++) {
		const wait = tStart + (i * 1000) / PUBLISH_RATE - performance.now()
		if (wait > 0) await Bun.sleep(wait)
		sent.push(publish(i))
	}
	await Promise.all(sent)
	const expected = published * DELAY_ENDPOINTS
	const t1 = performance.now()
	for (;;) {
		if ((await arrivals(receiver)).n - start >= expected) break
		if (performance.now() - t1 > 600_000) throw new Error('the publish load’s deliveries did not all arrive in 10 minutes')
		await Bun.sleep(100)
	}
	const list = (await arrivals(receiver, true)).list.slice(start)
	const delays = list.map(([eventMs, arrivedMs]) => arrivedMs - eventMs).sort((a, b) => a - b)
	console.log(
		`delay under load: ${published} publishes in ${DURATION} s (${PUBLISH_RATE}/s asked, ${failed} not 201), each to ${DELAY_ENDPOINTS} endpoints → ${delays.length} deliveries; change to delivery p50 ${pct(delays, 50).toFixed(0)} ms, p99 ${pct(delays, 99).toFixed(0)} ms, max ${delays.at(-1)?.toFixed(0)} ms (load average at start ${loadStart}, at end ${load()})`,
	)
	await database.close()
}

async function cleanup() {
	for (const c of children) {
		c.kill('SIGTERM')
		await Promise.race([c.exited, Bun.sleep(10_000)])
		c.kill('SIGKILL')
	}
	await admin.unsafe(`drop database if exists ${dbName} with (force)`).catch(() => {})
	await admin.end()
	rmSync(work, { recursive: true, force: true })
}

process.on('SIGINT', () => cleanup().finally(() => process.exit(130)))
main()
	.then(cleanup)
	.catch(async (error) => {
		console.error(error)
		await cleanup()
		process.exit(1)
	})
