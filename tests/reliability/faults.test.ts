/**
 * Faults under load, against one real server process on a private PostgreSQL cluster reached
 * through a TCP proxy, with a private Redis: the database stalled (every PostgreSQL process
 * SIGSTOPped), restarted fast and immediate, and cut off (proxy killed); Redis killed and started
 * again; SIGTERM with a request in flight. The heavier version (10 s stall, longer load, SMTP down)
 * is `bench/faults.ts`.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { connect } from 'node:net'
import { describeProcesses } from './gate.ts'
import { checkWrites, depsOn, oneRequest, seedTenant, startLoad, summarize, type Outcome, type Tenant } from './load.ts'
import {
	privatePostgres,
	privateRedis,
	sleep,
	startServer,
	tcpProxy,
	waitFor,
	type PrivatePostgres,
	type PrivateRedis,
	type ServerProcess,
	type TcpProxy,
} from './processes.ts'

setDefaultTimeout(120_000)

describeProcesses('PostgreSQL, Redis and shutdown faults', () => {
	let pg: PrivatePostgres
	let proxy: TcpProxy
	let redis: PrivateRedis
	let server: ServerProcess
	let tenant: Tenant
	const run = `F${Date.now().toString(36)}`

	beforeAll(async () => {
		pg = await privatePostgres()
		await pg.createDatabase('benchline')
		proxy = await tcpProxy(pg.port)
		redis = await privateRedis()
		const fixtures = await depsOn(pg.url('benchline'))
		tenant = await seedTenant(fixtures.deps, { keys: 3, tokens: 3 })
		await fixtures.close()
		server = await startServer({
			DATABASE_URL: `postgres://postgres@127.0.0.1:${proxy.port}/benchline`,
			REDIS_URL: redis.url,
			RATE_LIMIT_PER_MINUTE: '100000',
			SHUTDOWN_DRAIN_SECONDS: '1',
		})
	}, 120_000)

	afterAll(async () => {
		server?.kill('SIGKILL')
		proxy?.stop()
		await redis?.stop()
		pg?.stop()
	})

	const plan = () => ({ baseUrl: server.url, tenant, run })

	/** Waits until a publish succeeds again; returns how long that took. */
	async function recovery(from: number): Promise<number> {
		let n = 0
		await waitFor(
			'the server to serve writes again',
			async () => {
				if (!server.alive())
					throw Object.assign(
						new Error(
							`the server exited (${server.proc.exitCode ?? server.proc.signalCode}); last log lines:\n${server.logs
								.slice(-12)
								.map((l) => JSON.stringify(l).slice(0, 400))
								.join('\n')}`,
						),
						{ fatal: true },
					)
				return (await oneRequest(plan(), 'publish', 1_000_000 + n++)).acked
			},
			30_000,
			200,
		)
		return Date.now() - from
	}

	describe('PostgreSQL faults under a steady load', () => {
		test('stalled, restarted (fast, immediate), cut off: 503 with Retry-After at once, no crash, recovers by itself, every acknowledged write stored once', async () => {
			const load = startLoad({ ...plan(), rate: 25 })
			const recoveries: Record<string, number> = {}
			const faults: { name: string; from: number; to: number }[] = []
			const fault = async (name: string, act: () => Promise<void> | void) => {
				await sleep(1500)
				const from = Date.now()
				await act()
				const to = Date.now()
				faults.push({ name, from, to })
				recoveries[name] = await recovery(to)
			}
			await fault('stall 5 s', async () => {
				pg.pause()
				await sleep(5000)
				pg.resume()
			})
			await fault('restart fast', () => pg.restart('fast'))
			await fault('restart immediate', () => pg.restart('immediate'))
			await fault('cut off 3 s', async () => {
				proxy.cut()
				await sleep(3000)
				await proxy.restore()
			})
			await sleep(1500)
			const outcomes = await load.stop()

			expect(server.alive()).toBe(true)
			const counts = summarize(outcomes)
			// Only success or 503: never a 500, never a dropped connection.
			const bad = outcomes.filter((o) => ![200, 201, 503].includes(o.status))
			expect(bad.map((o) => `${o.kind} ${o.status} ${o.error}`)).toEqual([])
			const unavailable = outcomes.filter((o) => o.status === 503)
			expect(unavailable.length).toBeGreaterThan(0)
			for (const o of unavailable) expect(Number(o.retryAfter)).toBeGreaterThan(0)
			// Fail fast: a 503 does not wait for the database to come back (the stall lasts 5 s; the probe
			// notices within about 2 s, more on a busy machine — the bound only has to stay below the stall).
			const slow503 = unavailable.filter((o) => o.end - o.start > 4500)
			expect(slow503.map((o) => `${o.kind} ${o.end - o.start} ms`)).toEqual([])
			// Tool calls that failed said so in a tool result a model can act on, never an internal error.
			for (const o of outcomes.filter((o) => o.status === 200 && o.kind !== 'publish' && o.error)) expect(o.error).toContain('temporarily unavailable')
			for (const [name, ms] of Object.entries(recoveries)) expect({ name, recovered: ms < 15_000 }).toEqual({ name, recovered: true })
			// Outside the fault windows, everything succeeded: from a few seconds after the fault ended, or
			// after the app was seen to recover if that took longer (a busy machine; the bound above is 15 s).
			const settle = (f: (typeof faults)[number]) => Math.max(4000, recoveries[f.name]! + 2000)
			const outside = outcomes.filter((o) => faults.every((f) => o.end < f.from || o.start > f.to + settle(f)))
			expect(outside.filter((o) => o.status !== 200 && o.status !== 201).map((o) => `${o.kind} ${o.status}`)).toEqual([])

			const fixtures = await depsOn(pg.url('benchline'))
			try {
				const check = await checkWrites(fixtures.deps, tenant, outcomes)
				expect(check.missing).toEqual([])
				expect(check.duplicated).toEqual([])
				expect(check.acked).toBeGreaterThan(50)
			} finally {
				await fixtures.close()
			}
			const said = server.logs.map((l) => l.msg)
			expect(said).toContain('database does not answer; requests get 503 until it is back')
			expect(said).toContain('database answers again; serving requests')
			console.log(
				`faults: ${outcomes.length} requests ${JSON.stringify(counts)}; slowest 503 ${Math.max(...unavailable.map((o) => o.end - o.start))} ms; recovery ms ${JSON.stringify(recoveries)}`,
			)
		})
	})

	describe('Redis faults', () => {
		test('Redis down: rate limiting falls back to per-instance counters and says so; back on Redis when it returns', async () => {
			const request = (n: number) => oneRequest(plan(), 'list_jobs', 2_000_000 + n)
			expect((await request(0)).status).toBe(200)
			// Only what the server says from here counts: a slow start (a loaded machine) can have made it
			// fall back and come back before this test, and that earlier "again" says nothing of the restart below.
			const said = server.logs.length
			const saidSince = () => server.logs.slice(said)
			await redis.kill()
			const during: Outcome[] = []
			for (let i = 1; i <= 10; i++) during.push(await request(i))
			expect(during.map((o) => o.status)).toEqual(Array(10).fill(200))
			for (const o of during) expect(o.end - o.start).toBeLessThan(1500)
			expect(saidSince().some((l) => l.level === 'warn' && String(l.msg).includes('falls back to per-instance counters'))).toBe(true)

			await redis.start()
			let n = 100
			await waitFor(
				'rate limiting to use Redis again',
				async () => {
					await request(n++)
					return saidSince().some((l) => String(l.msg).includes('shared through Redis again'))
				},
				15_000,
				250,
			)
			const { default: Redis } = await import('ioredis')
			const client = new Redis(redis.url)
			try {
				expect((await client.keys('bl:rl:*')).length).toBeGreaterThan(0)
			} finally {
				client.disconnect()
			}
		})
	})

	describe('SIGTERM', () => {
		test('/ready says 503 during the drain, then new connections are refused; the request in flight finishes, the process exits 0 within 15 s', async () => {
			const body = JSON.stringify({ vendorJobId: `${run}-sigterm`, title: 'Published across a shutdown' })
			const socket = connect(server.port, '127.0.0.1')
			await new Promise<void>((r) => socket.once('connect', () => r()))
			let answer = ''
			socket.on('data', (c) => (answer += c.toString()))
			const closed = new Promise<void>((r) => socket.once('close', () => r()))
			socket.write(
				`POST /api/v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${tenant.vendorKeys[0]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
			)
			socket.write(body.slice(0, 10))
			await sleep(300)
			const signalled = Date.now()
			server.kill('SIGTERM')
			await sleep(300)
			expect((await fetch(`${server.url}/ready`, { signal: AbortSignal.timeout(2000) })).status).toBe(503)
			await sleep(signalled + 2000 - Date.now())
			const refused = await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(2000) }).then(
				(r) => `answered ${r.status}`,
				(e) => `refused: ${e.code ?? e.message}`,
			)
			expect(refused).toStartWith('refused')
			socket.write(body.slice(10))
			await Promise.race([closed, sleep(10_000)])
			socket.destroy()
			expect(answer).toStartWith('HTTP/1.1 201')
			const exit = await server.exited
			expect(exit.code).toBe(0)
			expect(exit.at - signalled).toBeLessThan(15_000)
			expect(server.logs.map((l) => l.msg)).toContain('shutting down')
		})
	})
})
