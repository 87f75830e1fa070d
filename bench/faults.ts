/**
 * bench/faults — the heavy fault run (the suite has a lighter one: tests/reliability/faults.test.ts).
 *
 *   bun bench/faults.ts            (npm run bench:faults)
 *
 * One server process (`bun core/main.ts`) on a private PostgreSQL cluster (initdb/pg_ctl on a free
 * loopback port, as the postgres user when run as root) reached through socat, a private Redis and
 * a loopback SMTP server, under a steady load of RATE (40) requests a second — publishes, MCP
 * `create_job` and `list_jobs` in turn — while, one after the other:
 *   1. every PostgreSQL process is SIGSTOPped for STALL (10) s, then SIGCONTed;
 *   2. `pg_ctl restart -m fast`;  3. `pg_ctl restart -m immediate` (a crash);
 *   4. the link is cut (socat killed) for CUT (5) s;
 *   5. Redis is killed for 5 s and started again;
 *   6. SMTP has been down since the start with MAILS (20) mails queued through the outbox's public
 *      API; it comes back after the database faults and every mail must arrive exactly once;
 *   7. SIGTERM with a request in flight (a body sent half, finished after the signal): /ready 503 while draining, then refused.
 * Afterwards: every acknowledged write (2xx publish, successful create_job) is in the database
 * exactly once with exactly one activity row. Prints a summary (the README's Reliability figures)
 * and writes bench/results/faults-<date>.json. Exits 1 when an expectation fails.
 *
 * Settings (environment): RATE=40 STALL=10 CUT=5 MAILS=20.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { resolve } from 'node:path'
import { eq } from 'drizzle-orm'
import { enqueueMail } from '../modules/outbox/index.ts'
import { outbox } from '../modules/outbox/table.ts'
import { startSmtp } from '../tests/smtp.ts'
import { checkWrites, depsOn, oneRequest, percentile, seedTenant, startLoad, summarize, type Outcome } from '../tests/reliability/load.ts'
import { privatePostgres, privateRedis, sleep, startServer, tcpProxy, waitFor } from '../tests/reliability/processes.ts'

const RATE = Number(process.env.RATE ?? 40)
const STALL = Number(process.env.STALL ?? 10)
const CUT = Number(process.env.CUT ?? 5)
const MAILS = Number(process.env.MAILS ?? 20)

const failures: string[] = []
const expectThat = (ok: boolean, what: string) => void (ok || failures.push(what))

const pg = await privatePostgres()
const cleanup: (() => Promise<void> | void)[] = [() => pg.stop()]
process.on('SIGINT', async () => {
	for (const c of cleanup.reverse()) await c()
	process.exit(130)
})
try {
	await pg.createDatabase('benchline')
	const proxy = await tcpProxy(pg.port)
	cleanup.push(() => proxy.stop())
	const redis = await privateRedis()
	cleanup.push(() => redis.stop())
	const smtp = await startSmtp()
	cleanup.push(() => smtp.stop())
	await smtp.stop() // down from the start

	const fixtures = await depsOn(pg.url('benchline'))
	const tenant = await seedTenant(fixtures.deps, { keys: 4, tokens: 4 })
	const mails: { id: string; to: string }[] = []
	for (let i = 0; i < MAILS; i++) {
		const to = `fault-${i}-${Date.now().toString(36)}@example.test`
		// Queued by a server that has SMTP_URL (the server is down, not unset): not held in the dev mailbox.
		mails.push({
			...(await enqueueMail(
				fixtures.deps.db,
				{ workspaceId: tenant.workspaceId, to, subject: `Held mail ${i}`, text: 'Queued while SMTP was down.' },
				{ ...fixtures.deps, config: { ...fixtures.deps.config, smtpUrl: smtp.url } },
			)),
			to,
		})
	}
	await fixtures.close()

	const server = await startServer({
		DATABASE_URL: `postgres://postgres@127.0.0.1:${proxy.port}/benchline`,
		REDIS_URL: redis.url,
		SMTP_URL: smtp.url,
		RATE_LIMIT_PER_MINUTE: '1000000',
		SHUTDOWN_DRAIN_SECONDS: '1',
	})
	cleanup.push(() => server.kill('SIGKILL'))
	const plan = { baseUrl: server.url, tenant, run: `B${Date.now().toString(36)}` }
	const started = Date.now()
	const load = startLoad({ ...plan, rate: RATE })
	const faults: { name: string; from: number; to: number; recoveryMs: number }[] = []
	let probeSeq = 0
	const fault = async (name: string, act: () => Promise<void> | void) => {
		await sleep(3000)
		const from = Date.now()
		await act()
		const to = Date.now()
		await waitFor(`recovery after ${name}`, async () => (await oneRequest(plan, 'publish', 10_000_000 + probeSeq++)).acked, 60_000, 100)
		faults.push({ name, from, to, recoveryMs: Date.now() - to })
		console.log(`${name}: recovered ${Date.now() - to} ms after the fault ended`)
	}

	await fault(`PostgreSQL stalled ${STALL} s (SIGSTOP)`, async () => {
		pg.pause()
		await sleep(STALL * 1000)
		pg.resume()
	})
	await fault('PostgreSQL restart -m fast', () => pg.restart('fast'))
	await fault('PostgreSQL restart -m immediate', () => pg.restart('immediate'))
	await fault(`database link cut ${CUT} s (proxy killed)`, async () => {
		proxy.cut()
		await sleep(CUT * 1000)
		await proxy.restore()
	})
	await fault('Redis killed 5 s', async () => {
		await redis.kill()
		await sleep(5000)
		await redis.start()
	})
	await waitFor('rate limiting back on Redis', () => server.logs.some((l) => String(l.msg).includes('shared through Redis again')), 20_000)

	// SMTP comes back: the held mail is delivered, each message once.
	const smtpUp = Date.now()
	await smtp.start()
	await waitFor('every held mail delivered', () => mails.every((m) => smtp.to(m.to).length > 0), 120_000, 250)
	const mailDelay = Date.now() - smtpUp
	await sleep(3000)
	const outcomes = await load.stop()

	// SIGTERM with a request in flight.
	const body = JSON.stringify({ vendorJobId: `${plan.run}-sigterm`, title: 'Published across a shutdown' })
	const socket = connect(server.port, '127.0.0.1')
	await new Promise<void>((r) => socket.once('connect', () => r()))
	let answer = ''
	socket.on('data', (c) => (answer += c.toString()))
	socket.write(
		`POST /api/v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${tenant.vendorKeys[0]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 10)}`,
	)
	await sleep(300)
	const signalled = Date.now()
	server.kill('SIGTERM')
	await sleep(300)
	// During the drain (1 s) /ready says 503; after it, new connections are refused.
	const drained = await fetch(`${server.url}/ready`, { signal: AbortSignal.timeout(2000) }).then(
		(r) => r.status === 503,
		() => false,
	)
	await sleep(signalled + 2000 - Date.now())
	const refused = await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(2000) }).then(
		() => false,
		() => true,
	)
	socket.write(body.slice(10))
	const exit = await server.exited
	socket.destroy()

	// What is in the database now.
	const after = await depsOn(pg.url('benchline'))
	const writes = await checkWrites(after.deps, tenant, outcomes)
	const rows = await after.deps.db.select({ to: outbox.to, status: outbox.status }).from(outbox).where(eq(outbox.workspaceId, tenant.workspaceId))
	await after.close()

	const unavailable = outcomes.filter((o) => o.status === 503)
	const inWindow = (o: Outcome) => faults.some((f) => o.end >= f.from && o.start <= f.to + f.recoveryMs + 2000)
	const outside = outcomes.filter((o) => !inWindow(o))
	const bad = outcomes.filter((o) => ![200, 201, 503].includes(o.status))
	expectThat(bad.length === 0, `answers other than 2xx/503: ${JSON.stringify(summarize(bad))}`)
	expectThat(
		unavailable.every((o) => Number(o.retryAfter) > 0),
		'a 503 without Retry-After',
	)
	expectThat(
		outside.every((o) => o.status === 200 || o.status === 201),
		'failures outside the fault windows',
	)
	expectThat(writes.missing.length === 0 && writes.duplicated.length === 0, `writes: ${JSON.stringify(writes)}`)
	expectThat(
		mails.every((m) => smtp.to(m.to).length === 1),
		'a held mail was delivered other than once',
	)
	expectThat(
		rows.every((r) => r.status === 'sent'),
		'outbox rows not all sent',
	)
	expectThat(
		answer.startsWith('HTTP/1.1 201') && drained && refused && exit.code === 0,
		`SIGTERM: answer ${answer.slice(0, 20)}, /ready 503 while draining ${drained}, refused ${refused}, exit ${exit.code}`,
	)
	expectThat(
		server.logs.some((l) => String(l.msg).includes('falls back to per-instance counters')),
		'no log line for the Redis fallback',
	)

	const report = {
		date: new Date().toISOString(),
		settings: { RATE, STALL, CUT, MAILS },
		durationS: Math.round((Date.now() - started) / 1000),
		requests: outcomes.length,
		byStatus: summarize(outcomes),
		acknowledgedWrites: writes.acked,
		missingWrites: writes.missing.length,
		duplicatedWrites: writes.duplicated.length,
		faults: faults.map((f) => ({
			name: f.name,
			durationMs: f.to - f.from,
			recoveryMs: f.recoveryMs,
			answered503: outcomes.filter((o) => o.status === 503 && o.end >= f.from && o.start <= f.to + f.recoveryMs).length,
		})),
		latencyMs: {
			'503 p50': percentile(
				unavailable.map((o) => o.end - o.start),
				50,
			),
			'503 p99': percentile(
				unavailable.map((o) => o.end - o.start),
				99,
			),
			'503 max': Math.max(0, ...unavailable.map((o) => o.end - o.start)),
			'outside faults p50': percentile(
				outside.map((o) => o.end - o.start),
				50,
			),
			'outside faults p99': percentile(
				outside.map((o) => o.end - o.start),
				99,
			),
		},
		mail: { held: MAILS, deliveredOnce: mails.filter((m) => smtp.to(m.to).length === 1).length, msAfterSmtpReturned: mailDelay },
		sigterm: { inFlightAnswer: answer.split('\r\n')[0], newConnectionsRefused: refused, exitCode: exit.code, exitMs: exit.at - signalled },
		serverAlive: 'exited 0 on SIGTERM only',
		failures,
	}
	const dir = resolve(import.meta.dir, 'results')
	mkdirSync(dir, { recursive: true })
	const file = resolve(dir, `faults-${report.date.replace(/[:.]/g, '-')}.json`)
	writeFileSync(file, JSON.stringify(report, null, 2))
	console.log(JSON.stringify(report, null, 2))
	console.log(`\nwritten to ${file}`)
} finally {
	for (const c of cleanup.reverse()) await c()
}
process.exit(failures.length ? 1 : 0)
