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
import { networkInterfaces } from 'node:os'
import type { AppDeps } from '../core/deps.ts'
import { newCredential } from '../core/credentials.ts'
import { createApp, listen } from '../core/main.ts'
import { signInFailures } from '../modules/auth/table.ts'
import { awayFromMinuteEdge, newPerson, newPersonWithToken, newWorkspace, testDeps } from './helpers.ts'
import { LEGACY_VERSION as MCP_VERSION } from './mcp/rpc.ts'

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

/** One HTTP request to `on` on a fresh connection from `localAddress`. */
function request(
	on: { port: number | undefined },
	localAddress: string,
	method: string,
	path: string,
	options: { headers?: Record<string, string>; body?: string; host?: string } = {},
): Promise<Answer> {
	return new Promise((resolve, reject) => {
		const target = { host: options.host ?? '127.0.0.1', port: on.port, method, path, localAddress, agent: false, headers: options.headers }
		const outgoing = http.request(target, (res) => {
			let text = ''
			res.setEncoding('utf8')
			res.on('data', (chunk) => (text += chunk))
			res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }))
		})
		outgoing.on('error', reject)
		outgoing.end(options.body)
	})
}
const from = (localAddress: string, method: string, path: string, options: { headers?: Record<string, string>; body?: string } = {}) =>
	request(server, localAddress, method, path, options)

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
		await deps.db.insert(signInFailures).values(
			Array.from({ length: 19 }, (_, i) => ({
				id: `sif_addr${i}${Date.now()}`,
				email: `earlier${i}-${Date.now()}@example.test`,
				address: LOUD,
				at: deps.now(),
			})),
		)
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
		const register = (address: string) =>
			from(address, 'POST', '/oauth/register', {
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ client_name: 'Per-address test', redirect_uris: ['http://127.0.0.1:43123/callback'] }),
			})
		const loud = []
		for (let i = 0; i < 21; i++) loud.push((await register(LOUD)).status)
		expect(loud).toEqual([...Array(20).fill(201), 429])
		expect((await register(QUIET)).status).toBe(201)
	})

	test('OAuth revocation: 120 a minute per address', async () => {
		await awayFromMinuteEdge()
		const revoke = (address: string) =>
			from(address, 'POST', '/oauth/revoke', {
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body: new URLSearchParams({ token: newCredential('rt'), client_id: 'cli_none' }).toString(),
			})
		const loud = []
		for (let i = 0; i < 121; i++) loud.push((await revoke(LOUD)).status)
		expect(loud.slice(0, 120).every((s) => s !== 429)).toBe(true)
		expect(loud[120]).toBe(429)
		expect((await revoke(QUIET)).status).not.toBe(429)
	})
})

describe('failed credentials are counted per address on every door (issue 16 item 9)', () => {
	const FAILURES = 5
	let limited: { deps: AppDeps; server: ReturnType<typeof listen> }
	beforeAll(async () => {
		const deps = await testDeps({ TRUST_PROXY: 'off', FAILED_CREDENTIALS_PER_ADDRESS_PER_MINUTE: String(FAILURES) })
		limited = { deps, server: listen(deps, createApp(deps), { port: 0, hostname: '127.0.0.1' }) }
	})
	afterAll(() => limited?.server.stop(true))
	const send = (address: string, method: string, path: string, options: { headers?: Record<string, string>; body?: string } = {}) =>
		request(limited.server, address, method, path, options)
	const mcp = (address: string, token: string) =>
		send(address, 'POST', '/api/mcp', {
			headers: {
				authorization: `Bearer ${token}`,
				'content-type': 'application/json',
				accept: 'application/json, text/event-stream',
				'mcp-protocol-version': MCP_VERSION,
			},
			body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
		})
	const rest = (address: string, key: string) => send(address, 'GET', '/api/v1/jobs', { headers: { authorization: `Bearer ${key}` } })
	const token = (address: string, code: string) =>
		send(address, 'POST', '/oauth/token', {
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({
				grant_type: 'authorization_code',
				code,
				code_verifier: 'v'.repeat(43),
				client_id: 'cli_none',
				redirect_uri: 'http://127.0.0.1:43123/callback',
			}).toString(),
		})

	test('MCP: made-up tokens with valid checksums get 401 up to the limit, then 429 with Retry-After before any look-up, good tokens included; another address is served', async () => {
		await awayFromMinuteEdge()
		const loud = '127.0.0.3'
		const ws = await newWorkspace(limited.deps)
		const good = await newPersonWithToken(ws, 'recruiter')
		const statuses = []
		for (let i = 0; i < FAILURES; i++) statuses.push((await mcp(loud, newCredential('pat'))).status)
		expect(statuses).toEqual(Array(FAILURES).fill(401))
		const refused = await mcp(loud, newCredential('pat'))
		expect(refused.status).toBe(429)
		expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
		expect(refused.headers['ratelimit-policy']).toBe(`"failed-credentials";q=${FAILURES};w=60`)
		expect(JSON.parse(refused.text).error.message).toMatch(/too many failed credentials from this address: wait \d+ seconds/i)
		// Decided before the token is looked up: a good one from that address waits too.
		expect((await mcp(loud, good.token)).status).toBe(429)
		expect((await mcp(QUIET, good.token)).status).toBe(200)
		expect((await mcp(QUIET, newCredential('pat'))).status).toBe(401)
	})

	test('one budget for every door: REST keys, MCP tokens and OAuth codes that fail count together; missing credentials do not count', async () => {
		await awayFromMinuteEdge()
		const loud = '127.0.0.4'
		// Asking without credentials is how clients discover the challenge: never counted.
		for (let i = 0; i < FAILURES * 2; i++)
			expect((await send(loud, 'POST', '/api/mcp', { headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(401)
		// Publishing looks its key up inside its own statement: a made-up key counts there too.
		const publish = await send(loud, 'POST', '/api/v1/jobs', {
			headers: { authorization: `Bearer ${newCredential('vk')}`, 'content-type': 'application/json' },
			body: JSON.stringify({ vendorJobId: 'X-1', title: 'QA' }),
		})
		const answers = [
			publish.status,
			(await rest(loud, 'not-a-key')).status,
			(await mcp(loud, `${newCredential('pat').slice(0, -1)}x`)).status,
			(await token(loud, newCredential('code'))).status,
			(await token(loud, newCredential('code'))).status,
		]
		expect(answers).toEqual([401, 401, 401, 401, 401])
		for (const door of [() => rest(loud, newCredential('vk')), () => mcp(loud, newCredential('pat')), () => token(loud, newCredential('code'))]) {
			const res = await door()
			expect({ status: res.status, retryAfter: Number(res.headers['retry-after']) > 0 }).toEqual({ status: 429, retryAfter: true })
		}
		expect(JSON.parse((await token(loud, newCredential('code'))).text).error).toBe('temporarily_unavailable')
		expect((await rest(QUIET, newCredential('vk'))).status).toBe(401)
		expect((await token(QUIET, newCredential('code'))).status).toBe(401)
	})
})

describe('TRUST_PROXY=on trusts loopback peers only (issue 26)', () => {
	// This machine's own address on a network interface (not loopback): a connection to it comes from it.
	const outside = Object.values(networkInterfaces())
		.flat()
		.find((i) => i && !i.internal && i.family === 'IPv4')?.address
	let proxied: { deps: AppDeps; server: ReturnType<typeof listen> }
	beforeAll(async () => {
		const deps = await testDeps({ TRUST_PROXY: 'on' })
		proxied = { deps, server: listen(deps, createApp(deps), { port: 0, hostname: '0.0.0.0' }) }
	})
	afterAll(() => proxied?.server.stop(true))

	/** A wrong password from `localAddress` to `host` with an X-Forwarded-For header: the address the failure was counted under. */
	async function failureCountedAs(host: string, localAddress: string, forwarded: string): Promise<string | undefined> {
		const email = `xff-${Date.now()}-${Math.random().toString(36).slice(2)}@example.test`
		const send = (method: string, path: string, o: { headers?: Record<string, string>; body?: string } = {}) =>
			request(proxied.server, localAddress, method, path, { ...o, host, headers: { ...o.headers, 'x-forwarded-for': forwarded } })
		const page = await send('GET', '/sign-in')
		const cookie = (page.headers['set-cookie'] ?? []).map((line) => line.split(';')[0]).join('; ')
		const csrf = /name="csrf" value="([^"]*)"/.exec(page.text)![1]!
		const body = new URLSearchParams({ csrf, email, password: 'not the password', next: '/portal' }).toString()
		expect((await send('POST', '/sign-in', { headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, body })).status).toBe(401)
		const [row] = await proxied.deps.db.select({ address: signInFailures.address }).from(signInFailures).where(eq(signInFailures.email, email))
		return row?.address
	}

	test('the forwarded address counts when the peer is loopback (the proxy on this host)', async () => {
		expect(await failureCountedAs('127.0.0.1', QUIET, '198.51.100.41')).toBe('198.51.100.41')
	})

	test('a client that reaches the port directly from another address is counted by its own address, whatever it forwards', async () => {
		expect(outside).toBeDefined()
		expect(await failureCountedAs(outside!, outside!, '198.51.100.42')).toBe(outside)
	})
})
