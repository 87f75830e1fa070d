/**
 * Slow clients against a real server process started with a small idle timeout
 * (HTTP_IDLE_TIMEOUT=2): raw sockets that send nothing, stop in the middle of the headers, trickle
 * the headers a byte at a time, stop in the middle of a body or trickle it. Each connection is cut
 * by the server within a bound, and a well-behaved client is served meanwhile.
 *
 * Measured on Bun 1.4.5: a connection whose headers never complete is closed after about 10 s
 * whatever HTTP_IDLE_TIMEOUT says (uWS's own header timeout); a body that stalls or trickles is cut
 * after about twice HTTP_IDLE_TIMEOUT. nginx in front (README, Deployment) cuts slow headers and
 * bodies sooner (client_header_timeout, client_body_timeout).
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { connect, type Socket } from 'node:net'
import { describeProcesses } from './gate.ts'
import { depsOn, seedTenant, type Tenant } from './load.ts'
import { scratchPostgresDatabase, startServer, type ServerProcess } from './processes.ts'

setDefaultTimeout(60_000)

const IDLE = 2
let database: { url: string; drop(): Promise<void> }
let server: ServerProcess
let tenant: Tenant

describeProcesses('slow clients', () => {
	beforeAll(async () => {
		database = await scratchPostgresDatabase()
		const fixtures = await depsOn(database.url)
		tenant = await seedTenant(fixtures.deps)
		await fixtures.close()
		server = await startServer({ DATABASE_URL: database.url, HTTP_IDLE_TIMEOUT: String(IDLE) })
	}, 60_000)

	afterAll(async () => {
		server?.kill('SIGKILL')
		await server?.exited
		await database?.drop()
	})

	/** Opens a raw connection, runs `script`, and resolves with how long the server took to close it (or Infinity). */
	function probe(script: (s: Socket) => void, limitMs: number): Promise<{ closedAfter: number; received: string }> {
		return new Promise((done) => {
			const s = connect(server.port, '127.0.0.1')
			let received = ''
			let timer: ReturnType<typeof setInterval> | undefined
			const started = Date.now()
			const give = setTimeout(() => finish(Infinity), limitMs)
			const finish = (closedAfter: number) => {
				clearTimeout(give)
				if (timer) clearInterval(timer)
				s.destroy()
				done({ closedAfter, received })
			}
			s.on('data', (c) => (received += c.toString()))
			s.on('close', () => finish(Date.now() - started))
			s.on('error', () => {})
			s.on('connect', () => script(s))
			;(s as Socket & { trickle?: (text: string, everyMs: number) => void }).trickle = (text, everyMs) => {
				let i = 0
				timer = setInterval(() => {
					if (!s.destroyed) s.write(text[i++ % text.length]!)
				}, everyMs)
			}
		})
	}
	const trickle = (s: Socket, text: string, everyMs: number) => (s as Socket & { trickle: (t: string, e: number) => void }).trickle(text, everyMs)

	test('connections that never finish their headers or their body are cut; others are served meanwhile', async () => {
		const body = (n: number) => `POST /api/v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${tenant.vendorKeys[0]}\r\nContent-Type: application/json\r\nContent-Length: ${n}\r\n\r\n{"vendorJobId":`
		const HEADERS_BOUND = 15_000
		const BODY_BOUND = IDLE * 2 * 1000 + 2000
		const probes = {
			'sends nothing': probe(() => {}, HEADERS_BOUND + 5000),
			'stops in the middle of the headers': probe((s) => s.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: '), HEADERS_BOUND + 5000),
			'trickles the headers (a byte every 500 ms)': probe((s) => (s.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n'), trickle(s, 'X-Slow: aaaa\r\n', 500)), HEADERS_BOUND + 5000),
			'stops in the middle of the body': probe((s) => s.write(body(1000)), BODY_BOUND + 5000),
			'trickles the body (a byte every 500 ms)': probe((s) => (s.write(body(1000)), trickle(s, '"aaaaaaaa', 500)), BODY_BOUND + 5000),
		}
		// A normal client is served while the slow ones hang on.
		await Bun.sleep(500)
		const health = await fetch(`${server.url}/health`)
		expect(health.status).toBe(200)

		const results = Object.fromEntries(await Promise.all(Object.entries(probes).map(async ([k, p]) => [k, await p] as const)))
		for (const [what, r] of Object.entries(results)) {
			const bound = what.includes('body') ? BODY_BOUND : HEADERS_BOUND
			expect({ what, cut: r.closedAfter <= bound }).toEqual({ what, cut: true })
			// Nothing was handled as a complete request: at most an error status line.
			expect({ what, answer: r.received === '' || /^HTTP\/1\.1 4\d\d/.test(r.received) }).toEqual({ what, answer: true })
		}
		expect(server.alive()).toBe(true)
		console.log(`slow clients cut after (ms): ${JSON.stringify(Object.fromEntries(Object.entries(results).map(([k, r]) => [k, r.closedAfter])))}`)
	})
})
