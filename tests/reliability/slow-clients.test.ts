/**
 * Slow clients against a real server process started with a small idle timeout
 * (HTTP_IDLE_TIMEOUT=3, the least it may be): raw sockets that send nothing, stop in the middle of the headers, trickle
 * the headers a byte at a time, stop in the middle of a body or trickle it. Each connection is cut
 * by the server within a bound, and a well-behaved client is served meanwhile.
 *
 * Measured on Bun 1.4.5: a connection whose headers never complete is closed after about 10 s
 * whatever HTTP_IDLE_TIMEOUT says (uWS's own header timeout); a body that stalls or trickles is cut
 * after about twice HTTP_IDLE_TIMEOUT. nginx in front (README, Deployment) cuts slow headers and
 * bodies sooner (client_header_timeout, client_body_timeout).
 */
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { slowClient, type SlowClient } from './slow-socket.ts'
import { describeProcesses } from './gate.ts'
import { seededServer, type Tenant } from './load.ts'
import type { ServerProcess } from './processes.ts'

setDefaultTimeout(60_000)

const IDLE = 3
let started: Awaited<ReturnType<typeof seededServer>>
let server: ServerProcess
let tenant: Tenant

describeProcesses('slow clients', () => {
	beforeAll(async () => {
		started = await seededServer({ HTTP_IDLE_TIMEOUT: String(IDLE) })
		;({ server, tenant } = started)
	}, 60_000)

	afterAll(() => started?.stop())

	const probe = (client: SlowClient, limitMs: number) => slowClient(server.port, client, limitMs)

	test('connections that never finish their headers or their body are cut; others are served meanwhile', async () => {
		const body = (n: number) =>
			`POST /api/v1/jobs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${tenant.vendorKeys[0]}\r\nContent-Type: application/json\r\nContent-Length: ${n}\r\n\r\n{"vendorJobId":`
		const HEADERS_BOUND = 15_000
		const BODY_BOUND = IDLE * 2 * 1000 + 2000
		const probes = {
			'sends nothing': probe({}, HEADERS_BOUND + 5000),
			'stops in the middle of the headers': probe({ start: 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ' }, HEADERS_BOUND + 5000),
			'trickles the headers (a byte every 500 ms)': probe(
				{ start: 'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n', drip: 'X-Slow: aaaa\r\n', everyMs: 500 },
				HEADERS_BOUND + 5000,
			),
			'stops in the middle of the body': probe({ start: body(1000) }, BODY_BOUND + 5000),
			'trickles the body (a byte every 500 ms)': probe({ start: body(1000), drip: '"aaaaaaaa', everyMs: 500 }, BODY_BOUND + 5000),
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
