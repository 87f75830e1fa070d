/**
 * Security checklist row B4: client metadata is self-asserted.
 *
 * - The server never fetches what a client registers (`logo_uri`, `client_uri`, `jwks_uri`,
 *   `tos_uri`, `policy_uri`, nor the redirect address): `globalThis.fetch`, node's socket `connect`,
 *   `Bun.connect` and DNS look-ups are recorded (passing through to the real ones) during a whole
 *   flow (registration, consent, token, MCP call, refresh, API access page, revocation), and the
 *   addresses point at a listening TCP canary that counts every connection.
 * - The self-declared `client_name` is inert text on the consent page and the API access page, in
 *   headless Chromium with a dialog trap (XSS payloads), and the pages load nothing from elsewhere.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import dns from 'node:dns'
import net from 'node:net'
import * as oauth from 'oauth4webapi'
import { closeBrowser, newContext } from '../browser.ts'
import { newPerson, newWorkspace, serveApp } from '../helpers.ts'
import { authorizationRequest, authServer, consent, mcp, registerRaw, signedInPerson } from './as-client.ts'
import { callbackServer } from './browser-flow.ts'

// A browser start and several sign-ins on a busy machine.
setDefaultTimeout(120_000)

afterAll(() => closeBrowser())

/** A TCP listener that counts every connection made to it (and closes it). */
async function tcpCanary() {
	let connections = 0
	const server = net.createServer((socket) => {
		connections++
		socket.destroy()
	})
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const port = (server.address() as net.AddressInfo).port
	return { port, connections: () => connections, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

/** Where the test's database connections go (postgres.js may open new ones mid-flow: not outbound). */
function databaseEndpoint(): string | null {
	if (!process.env.DATABASE_URL) return null
	const u = new URL(process.env.DATABASE_URL)
	return `${u.port || '5432'}`
}

/**
 * Records every way this process could reach the network, passing each call through to the real
 * function: fetch, node sockets (node:net, which http, https and tls sit on), Bun.connect, DNS.
 */
function recordOutbound() {
	const seen: string[] = []
	const realFetch = globalThis.fetch
	const realConnect = net.Socket.prototype.connect
	const realBunConnect = Bun.connect
	const realLookup = dns.lookup
	const realPromiseLookup = dns.promises.lookup
	const dbPort = databaseEndpoint()
	globalThis.fetch = Object.assign((input: RequestInfo | URL, init?: RequestInit) => {
		seen.push(`fetch ${input instanceof Request ? input.url : String(input)}`)
		return realFetch(input, init)
	}, realFetch)
	net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
		// net.connect() passes its normalised arguments as one array: [options, callback].
		const list = Array.isArray(args[0]) ? (args[0] as unknown[]) : args
		const first = list[0] as { port?: unknown; host?: unknown; path?: unknown } | number | string
		const target =
			typeof first === 'object' && first !== null ? `${first.host ?? ''}:${first.port ?? first.path ?? ''}` : `${String(list[1] ?? '')}:${String(first)}`
		if (!(dbPort && target.endsWith(`:${dbPort}`))) seen.push(`socket ${target}`)
		return (realConnect as (...a: unknown[]) => unknown).apply(this, args)
	} as typeof realConnect
	Bun.connect = ((options: { hostname?: string; port?: number; unix?: string }) => {
		seen.push(`Bun.connect ${options.hostname ?? options.unix}:${options.port ?? ''}`)
		return realBunConnect(options as never)
	}) as typeof Bun.connect
	dns.lookup = ((hostname: string, ...rest: unknown[]) => {
		seen.push(`dns ${hostname}`)
		return (realLookup as (...a: unknown[]) => unknown)(hostname, ...rest)
	}) as typeof dns.lookup
	dns.promises.lookup = ((hostname: string, ...rest: unknown[]) => {
		seen.push(`dns ${hostname}`)
		return (realPromiseLookup as (...a: unknown[]) => unknown)(hostname, ...rest)
	}) as typeof dns.promises.lookup
	return {
		seen,
		restore() {
			globalThis.fetch = realFetch
			net.Socket.prototype.connect = realConnect
			Bun.connect = realBunConnect
			dns.lookup = realLookup
			dns.promises.lookup = realPromiseLookup
		},
	}
}

describe('B4 client metadata is self-asserted', () => {
	test('B4 registration and the whole authorization flow make no outbound request: metadata addresses are never fetched', async () => {
		const ctx = await authServer()
		const canary = await tcpCanary()
		const here = `http://127.0.0.1:${canary.port}`
		const recorder = recordOutbound()
		try {
			// The recorder and the canary see what they should: a passed-through fetch and a raw socket.
			await (await fetch(`${here}/probe`).catch(() => null))?.text().catch(() => null)
			await new Promise<void>((resolve) =>
				net
					.connect(canary.port, '127.0.0.1')
					.on('close', () => resolve())
					.on('error', () => resolve()),
			)
			expect(recorder.seen).toEqual([`fetch ${here}/probe`, `socket 127.0.0.1:${canary.port}`])
			expect(canary.connections()).toBe(2)
			recorder.seen.length = 0

			const metadata = {
				client_name: 'Metadata app',
				redirect_uris: [`${here}/callback`],
				logo_uri: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
				client_uri: `${here}/client`,
				jwks_uri: `${here}/jwks`,
				tos_uri: `${here}/tos`,
				policy_uri: 'http://metadata.google.internal/computeMetadata/v1/',
				software_statement: `${here}/statement`,
				sector_identifier_uri: `${here}/sector`,
				request_uris: [`${here}/request`],
			}
			const registered = await registerRaw(ctx, metadata)
			expect(registered.status).toBe(201)
			const client = registered.json as oauth.Client
			const who = await signedInPerson()
			const request = await authorizationRequest(ctx, client, `${here}/callback`)
			const allowed = await consent(who.portal, request.url)
			expect(allowed.status).toBe(303)
			expect(allowed.page.text).not.toContain('169.254.169.254')
			const params = oauth.validateAuthResponse(ctx.as, client, allowed.location!, request.state)
			const exchanged = await oauth.authorizationCodeGrantRequest(ctx.as, client, oauth.None(), params, `${here}/callback`, request.verifier, {
				...ctx.opts,
				additionalParameters: { resource: ctx.resource },
			})
			const tokens = await oauth.processAuthorizationCodeResponse(ctx.as, client, exchanged)
			expect((await mcp(ctx, tokens.access_token, 'tools/list')).status).toBe(200)
			const refreshed = await oauth.processRefreshTokenResponse(
				ctx.as,
				client,
				await oauth.refreshTokenGrantRequest(ctx.as, client, oauth.None(), tokens.refresh_token!, ctx.opts),
			)
			const apps = await who.portal.get('/settings/api')
			expect(apps.text).toContain('Metadata app')
			expect(apps.text).not.toContain('169.254.169.254')
			expect((await oauth.revocationRequest(ctx.as, client, oauth.None(), refreshed.refresh_token!, ctx.opts)).status).toBe(200)
			// Anything started in the background would have begun by now.
			await Bun.sleep(500)
			expect(recorder.seen).toEqual([])
			expect(canary.connections()).toBe(2)
		} finally {
			recorder.restore()
			await canary.stop()
		}
	})

	test('B4 hostile client names are inert text on the consent page and the API access page in Chromium: no script runs, nothing is loaded from elsewhere', async () => {
		const { url, deps } = await serveApp()
		const callback = callbackServer()
		const context = await newContext()
		const dialogs: string[] = []
		const requests: string[] = []
		context.on('page', (p) =>
			p.on('dialog', (d) => {
				dialogs.push(d.message())
				void d.dismiss()
			}),
		)
		context.on('request', (r) => void requests.push(r.url()))
		const names = [
			'<img src=x onerror=alert(1)>',
			'<script>alert(2)</script>',
			'"><svg onload=alert(3)>',
			"'><iframe src=javascript:alert(4)></iframe>",
			'</title><script>alert(5)</script>',
			'<a href="javascript:alert(6)">Benchline Official</a>',
			// biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, written literally on purpose
			"{{constructor.constructor('alert(7)')()}} ${alert(8)}",
		]
		try {
			const ws = await newWorkspace(deps)
			const person = await newPerson(ws, 'recruiter', {}, deps)
			const page = await context.newPage()
			for (const [i, name] of [...names, '\u202Eelgoog\u200B\u2066 app'].entries()) {
				const res = await fetch(`${url}/oauth/register`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({
						client_name: name,
						redirect_uris: [callback.redirectUri],
						logo_uri: 'http://169.254.169.254/logo.png',
						client_uri: 'https://evil.example/',
					}),
				})
				expect(res.status).toBe(201)
				const client = (await res.json()) as { client_id: string; client_name: string }
				const verifier = oauth.generateRandomCodeVerifier()
				const authorize = new URL(`${url}/oauth/authorize`)
				for (const [k, v] of Object.entries({
					client_id: client.client_id,
					redirect_uri: callback.redirectUri,
					response_type: 'code',
					code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
					code_challenge_method: 'S256',
					state: `s${i}`,
					resource: `${url}/api/mcp`,
					scope: 'mcp',
				}))
					authorize.searchParams.set(k, v)
				await page.goto(authorize.href)
				if (new URL(page.url()).pathname === '/sign-in') {
					await page.fill('input[name=email]', person.email)
					await page.fill('input[name=password]', person.password)
					await Promise.all([page.waitForURL((u) => u.pathname === '/oauth/authorize'), page.click('form[action="/sign-in"] button[type=submit]')])
				}
				const shown = i < names.length ? name : 'elgoog app'
				// The name is the heading's text, character for character (bidi and zero-width removed), and the title's.
				expect(await page.textContent('h1')).toBe(`Allow “${shown}” to use Benchline as you?`)
				expect(await page.title()).toStartWith(`Allow ${shown}?`)
				expect(await page.locator('main img, main script, main svg, main iframe, main a[href^="javascript"], h1 *').count()).toBe(0)
				// Allow, so that the app is listed on the API access page too.
				const arrived = callback.next()
				await page.click('button[name=decision][value=allow]')
				const code = (await arrived).get('code')!
				const token = await fetch(`${url}/oauth/token`, {
					method: 'POST',
					headers: { 'content-type': 'application/x-www-form-urlencoded' },
					body: new URLSearchParams({
						grant_type: 'authorization_code',
						code,
						code_verifier: verifier,
						client_id: client.client_id,
						redirect_uri: callback.redirectUri,
						resource: `${url}/api/mcp`,
					}),
				})
				expect(token.status).toBe(200)
			}
			await page.goto(`${url}/settings/api`)
			const listed = await page.locator('table tbody tr td:first-child').allTextContents()
			for (const name of [...names, 'elgoog app']) expect(listed.some((cell) => cell.startsWith(name))).toBe(true)
			expect(
				await page.locator('main img, main script, main svg, main iframe, main a[href^="javascript"], td:first-child *:not(span):not(div.cell)').count(),
			).toBe(0)
			expect(dialogs).toEqual([])
			// Nothing was requested from anywhere but the portal and the app's own callback address.
			const origins = new Set(requests.map((r) => new URL(r).origin))
			expect([...origins].filter((o) => o !== url && o !== new URL(callback.redirectUri).origin)).toEqual([])
		} finally {
			callback.stop()
			await context.close()
		}
	})
})
