/**
 * Every limit that says "per address" counts each client apart, by the address of the connection
 * the request came on: the app served by the production server code (`listen` in core/main.ts) on
 * a real loopback port, and real connections from two source addresses, 127.0.0.1 and 127.0.0.2
 * (Linux routes all of 127.0.0.0/8 to loopback). TRUST_PROXY is off: no header says who is who.
 *
 * 127.0.0.2 is the loud client and 127.0.0.1 the quiet one, each time: other tests sign in from
 * 127.0.0.1 (tests/helpers.ts serveApp), so no sign-in failure is left on it.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import http from 'node:http'
import type { AppDeps } from '../core/deps.ts'
import { newCredential } from '../core/credentials.ts'
import { createApp, listen } from '../core/main.ts'
import { signInFailures } from '../modules/auth/table.ts'
import { awayFromMinuteEdge } from './oauth/as-client.ts'
import { newPerson, newWorkspace, testDeps } from './helpers.ts'

setDefaultTimeout(60_000)

const LOUD = '127.0.0.2'
const QUIET = '127.0.0.1'
const REST_PER_ADDRESS = 5

let deps: AppDeps
let server: ReturnType<typeof listen>

beforeAll(async () => {
	deps = await testDeps({ TRUST_PROXY: 'off', RATE_LIMIT_PER_ADDRESS_PER_MINUTE: String(REST_PER_ADDRESS) })
	server = listen(deps, createApp(deps), { port: 0, hostname: '127.0.0.1' })
})
afterAll(async () => {
	server?.stop(true)
	await deps?.db.delete(signInFailures).where(eq(signInFailures.address, LOUD))
})

interface Answer {
	status: number
	headers: http.IncomingHttpHeaders
	text: string
}

/** One HTTP request on a fresh connection from `localAddress`. */
function from(localAddress: string, method: string, path: string, options: { headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
	return new Promise((resolve, reject) => {
		const request = http.request({ host: '127.0.0.1', port: server.port, method, path, localAddress, agent: false, headers: options.headers }, (res) => {
			let text = ''
			res.setEncoding('utf8')
			res.on('data', (chunk) => (text += chunk))
			res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }))
		})
		request.on('error', reject)
		request.end(options.body)
	})
}

/** Signs in through the real form from `localAddress`: the status of the form post. */
async function signIn(localAddress: string, email: string, password: string): Promise<number> {
	const page = await from(localAddress, 'GET', '/sign-in')
	const cookie = (page.headers['set-cookie'] ?? []).map((line) => line.split(';')[0]).join('; ')
	const csrf = /name="csrf" value="([^"]*)"/.exec(page.text)![1]!
	const body = new URLSearchParams({ csrf, email, password, next: '/portal' }).toString()
	return (await from(localAddress, 'POST', '/sign-in', { headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body })).status
}

describe('per-address limits count each connection’s own address', () => {
	test('sign-in: failures from one address slow that address down, not the other', async () => {
		const ws = await newWorkspace(deps)
		const person = await newPerson(ws, 'recruiter', {}, deps)
		// Nineteen earlier failures from the loud address, as the server would have recorded them
		// (each real one costs a full password hash); the twentieth is a real request.
		await deps.db.insert(signInFailures).values(Array.from({ length: 19 }, (_, i) => ({ id: `sif_addr${i}${Date.now()}`, email: `earlier${i}-${Date.now()}@example.test`, address: LOUD, at: deps.now() })))
		expect(await signIn(LOUD, `nobody-${Date.now()}@example.test`, 'not the password')).toBe(401)
		expect(await signIn(LOUD, person.email, person.password)).toBe(429)
		expect(await signIn(QUIET, person.email, person.password)).toBe(303)
	})

	test('REST: the per-address budget of one client is not spent by another', async () => {
		await awayFromMinuteEdge()
		const loud = []
		for (let i = 0; i <= REST_PER_ADDRESS; i++) loud.push((await from(LOUD, 'GET', '/api/v1/jobs')).status)
		expect(loud).toEqual([...Array(REST_PER_ADDRESS).fill(401), 429])
		expect((await from(QUIET, 'GET', '/api/v1/jobs')).status).toBe(401)
	})

	test('OAuth registration: 20 a minute per address', async () => {
		await awayFromMinuteEdge()
		const register = (address: string) => from(address, 'POST', '/oauth/register', { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ client_name: 'Per-address test', redirect_uris: ['http://127.0.0.1:43123/callback'] }) })
		const loud = []
		for (let i = 0; i < 21; i++) loud.push((await register(LOUD)).status)
		expect(loud).toEqual([...Array(20).fill(201), 429])
		expect((await register(QUIET)).status).toBe(201)
	})

	test('OAuth revocation: 120 a minute per address', async () => {
		await awayFromMinuteEdge()
		const revoke = (address: string) => from(address, 'POST', '/oauth/revoke', { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: newCredential('rt'), client_id: 'cli_none' }).toString() })
		const loud = []
		for (let i = 0; i < 121; i++) loud.push((await revoke(LOUD)).status)
		expect(loud.slice(0, 120).every((s) => s !== 429)).toBe(true)
		expect(loud[120]).toBe(429)
		expect((await revoke(QUIET)).status).not.toBe(429)
	})
})
