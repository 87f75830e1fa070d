/**
 * Whatever `Host` a client sends, the router and every check read one path (core/http/request-path.ts).
 * Elysia reads the path from the 12th character of `request.url` on, and Bun builds that URL from the
 * `Host` header: with `Host: x`, `GET /sign-out?/portal` was served as `/portal` while the checks saw
 * `/sign-out`, so a person signed in with a temporary password reached every page. A missing or
 * malformed `Host` (HTTP/1.0, empty, `a b`, `[::1`, `x:99999`) was a 500 with two stack traces.
 * Asked over a raw socket of a real listening server, and in-process (`app.handle`, as tests ask).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { Elysia } from 'elysia'
import { connect } from 'node:net'
import type { Server } from 'bun'
import { buildApp } from '../core/app.ts'
import { listen } from '../core/main.ts'
import { logLines, newPerson, newWorkspace, unique } from './helpers.ts'
import { portalApp, PortalClient, signedIn, uniqueAddress } from './portal.ts'

/** One request over a fresh connection, as written; the status, the headers (lower case) and the body. */
function raw(port: number, head: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
	return new Promise((done, fail) => {
		const socket = connect(port, '127.0.0.1')
		let text = ''
		socket.on('data', (chunk) => (text += chunk.toString()))
		socket.on('error', fail)
		socket.on('end', () => {
			const [top = '', ...rest] = text.split('\r\n\r\n')
			const [statusLine = '', ...lines] = top.split('\r\n')
			const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]))
			done({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') })
		})
		socket.write(head)
	})
}

const HOSTS: [string, string][] = [
	['a short host', 'Host: x\r\n'],
	['an empty host', 'Host: \r\n'],
	['a host with a space', 'Host: a b\r\n'],
	['an unclosed IPv6 literal', 'Host: [::1\r\n'],
	['a port out of range', 'Host: x:99999\r\n'],
	['a host with a question mark', 'Host: a?b\r\n'],
	['no host (HTTP/1.0)', ''],
]

let server: Server<unknown>
let probe: Server<unknown>

beforeAll(async () => {
	const { app, deps } = await portalApp()
	server = listen(deps, app, { port: 0, hostname: '127.0.0.1' })
	// The app with one more route that says the path the router matched and the path a check reads.
	const probing = buildApp(deps, [
		(kit) =>
			new Elysia({ name: 'probe' })
				.use(kit.auth)
				.get('/probe/*', ({ request, path }) => ({ routed: path, seen: new URL(request.url).pathname }), { auth: 'public' }) as never,
	])
	probe = listen(deps, probing as never, { port: 0, hostname: '127.0.0.1' })
}, 60_000)

afterAll(() => {
	server?.stop(true)
	probe?.stop(true)
})

test('the path a check reads is the path the router served, whatever the Host; a missing or malformed one is no error', async () => {
	const before = logLines.length
	const answers: Record<string, unknown> = {}
	for (const [what, host] of HOSTS) {
		const version = host ? 'HTTP/1.1' : 'HTTP/1.0'
		const res = await raw(probe.port!, `GET /probe/a?/probe/b ${version}\r\n${host}Connection: close\r\n\r\n`)
		answers[what] = res.status === 200 ? JSON.parse(res.body) : res.status
	}
	for (const [what] of HOSTS) expect({ what, answer: answers[what] }).toEqual({ what, answer: { routed: '/probe/a', seen: '/probe/a' } })
	const errors = logLines.slice(before).filter((l) => /"level":"error"/.test(l))
	expect(errors).toEqual([])
})

test('a session with a temporary password is sent to choose its own first, whatever the Host: over the network and in-process', async () => {
	const ws = await newWorkspace()
	const admin = await signedIn(await newPerson(ws, 'admin'))
	const email = `${unique('new')}@example.test`
	await admin.get('/people')
	expect((await admin.submit('/people', { name: 'New Hire', email, role: 'recruiter', password: 'temporary password' })).status).toBe(200)
	const { app } = await portalApp()
	const newcomer = new PortalClient(app, { address: uniqueAddress() })
	await newcomer.signIn(email, 'temporary password')
	expect((await newcomer.acceptFirstInvitation()).headers.get('location')).toBe('/portal')
	const cookie = [...newcomer.cookies].map(([k, v]) => `${k}=${v}`).join('; ')

	const ask = (host: string, target: string) => raw(server.port!, `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nCookie: ${cookie}\r\nConnection: close\r\n\r\n`)
	for (const host of ['x', 'localhost', 'a b', '']) {
		// Asked for /sign-out (the query is `/portal`): the router serves no GET there. Was: the portal, served as /portal.
		const signOut = await ask(host, '/sign-out?/portal')
		expect({ host, status: signOut.status }).toEqual({ host, status: 404 })
		const portal = await ask(host, '/portal')
		expect({ host, status: portal.status, location: portal.headers.location }).toEqual({ host, status: 303, location: '/settings/password?next=%2Fportal' })
	}
	// The in-process path the tests use goes through the same rebuilding (the app's own `handle`).
	expect((await app.handle(new Request('http://x/sign-out?/portal', { headers: { cookie } }))).status).toBe(404)
})
