/**
 * SIGTERM on a real server process (README, Deployment: SIGTERM; Liveness and readiness): `/ready`
 * answers 503 from the moment shutdown begins and `/health` 200, while the port keeps serving for
 * `SHUTDOWN_DRAIN_SECONDS`; then new connections are refused, the request in flight is answered and
 * the process exits 0. The port used to close at once, so no load balancer ever saw `/ready` say 503.
 */
import { expect, setDefaultTimeout, test } from 'bun:test'
import { connect } from 'node:net'
import { describeProcesses } from './gate.ts'
import { seededServer } from './load.ts'
import { sleep } from './processes.ts'

setDefaultTimeout(120_000)

const DRAIN_SECONDS = 3

describeProcesses('shutdown', () => {
	test('during the drain /ready is 503 and /health 200; then connections are refused, the request in flight is answered, exit 0', async () => {
		const started = await seededServer({ SHUTDOWN_DRAIN_SECONDS: String(DRAIN_SECONDS) })
		const { server } = started
		try {
			expect((await fetch(`${server.url}/ready`)).status).toBe(200)
			// A form post whose body is half sent when the signal comes: in flight across the whole shutdown.
			const body = 'email=a%40example.test&password=not-the-password'
			const socket = connect(server.port, '127.0.0.1')
			await new Promise<void>((r) => socket.once('connect', () => r()))
			let answer = ''
			socket.on('data', (c) => (answer += c.toString()))
			const closed = new Promise<void>((r) => socket.once('close', () => r()))
			socket.write(
				`POST /sign-in HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
			)
			await sleep(300)

			const signalled = Date.now()
			server.kill('SIGTERM')
			await sleep(500)
			const ready = await fetch(`${server.url}/ready`, { signal: AbortSignal.timeout(2000) })
			expect({ status: ready.status, retryAfter: ready.headers.get('retry-after') }).toEqual({ status: 503, retryAfter: '5' })
			expect((await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(2000) })).status).toBe(200)

			await sleep(signalled + DRAIN_SECONDS * 1000 + 1500 - Date.now())
			const after = await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(2000) }).then(
				(r) => `answered ${r.status}`,
				(e) => `refused: ${e.code ?? e.message}`,
			)
			expect(after).toStartWith('refused')

			socket.write(body.slice(10))
			await Promise.race([closed, sleep(10_000)])
			socket.destroy()
			expect(answer).toStartWith('HTTP/1.1 403') // answered (no CSRF token), not cut
			const exit = await server.exited
			expect(exit.code).toBe(0)
			expect(exit.at - signalled).toBeGreaterThanOrEqual(DRAIN_SECONDS * 1000)
			expect(exit.at - signalled).toBeLessThan(15_000)
			expect(server.logs.find((l) => l.msg === 'shutting down')).toMatchObject({ signal: 'SIGTERM', drainSeconds: DRAIN_SECONDS })
		} finally {
			await started.stop()
		}
	})
})
