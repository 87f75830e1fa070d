/**
 * A real OpenID Connect provider for the tests (`oidc-provider`, panva), on a loopback port: its
 * development login form signs in anyone (the login typed is the account, its `sub`, and its e-mail
 * address; `dana@firm.example#2` is another account with the same address, as a provider that gave
 * a leaver's address to someone new), consent is taken as given for the test client, PKCE is required.
 *
 * `tamper` makes it misbehave the way a broken or hostile provider would, after it did its own
 * work: the ID token re-signed with the provider's own key but another audience, issuer or nonce,
 * or an expiry in the past, or signed with a key it never published, or issued by a clock running ahead of ours. `stop()` takes it down (a provider that is down).
 * `requests` logs every request it got (`GET /.well-known/openid-configuration`: a discovery), and
 * `discoveryDown` makes it answer its discovery document with 503 (a provider failing for a moment).
 */
import { createServer, type Server } from 'node:http'
import * as jose from 'jose'
import Provider from 'oidc-provider'

export type Tamper = 'none' | 'wrong-audience' | 'wrong-issuer' | 'wrong-nonce' | 'expired' | 'foreign-key' | 'other-email' | 'clock-ahead'

export interface TestProvider {
	issuer: string
	clientId: string
	clientSecret: string
	tamper: Tamper
	/** With `other-email`: the e-mail address the ID token claims instead of the login's. */
	otherEmail: string
	/** With `clock-ahead`: how many seconds ahead of ours the provider's clock runs (its `iat`, `nbf` and `exp`). */
	clockAhead: number
	/** Claims the provider sends in place of its own (`name`, `email_verified` as a hostile or sloppy provider writes them). */
	claims: Record<string, unknown>
	/** Every request received, as `METHOD /path?query`, in order. */
	requests: string[]
	/** While on, the discovery document is answered with 503. */
	discoveryDown: boolean
	stop(): Promise<void>
}

export const DISCOVERY = 'GET /.well-known/openid-configuration'

export async function startProvider(redirectUri: string): Promise<TestProvider> {
	const { privateKey } = await jose.generateKeyPair('RS256', { extractable: true })
	const signing = { ...(await jose.exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' }
	const foreign = (await jose.generateKeyPair('RS256')).privateKey
	const server: Server = createServer()
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const port = (server.address() as { port: number }).port
	const issuer = `http://127.0.0.1:${port}`
	const state: TestProvider = {
		issuer,
		clientId: 'benchline-test',
		clientSecret: 'a-long-test-client-secret-0123456789',
		tamper: 'none',
		otherEmail: '',
		clockAhead: 0,
		claims: {},
		requests: [],
		discoveryDown: false,
		stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
	}
	const provider = new Provider(issuer, {
		clients: [
			{
				client_id: state.clientId,
				client_secret: state.clientSecret,
				redirect_uris: [redirectUri],
				grant_types: ['authorization_code'],
				response_types: ['code'],
				token_endpoint_auth_method: 'client_secret_basic',
			},
		],
		jwks: { keys: [signing] },
		cookies: { keys: ['test-provider-cookie-key'] },
		pkce: { required: () => true },
		// `upn` and `preferred_username` as Microsoft Entra ID sends them (set through `claims`).
		claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'preferred_username', 'upn'] },
		features: { devInteractions: { enabled: true } },
		findAccount: async (_ctx: unknown, id: string) => ({
			accountId: id,
			claims: async () => ({ sub: id, email: id.replace(/#.*$/, ''), email_verified: true, name: `Person ${id.split('@')[0]}`, ...state.claims }),
		}),
		// A first-party client: consent is given (the login form is the one step).
		loadExistingGrant: async (ctx: any) => {
			const grantId = ctx.oidc.result?.consent?.grantId ?? ctx.oidc.session.grantIdFor(ctx.oidc.client.clientId)
			if (grantId) return ctx.oidc.provider.Grant.find(grantId)
			const grant = new ctx.oidc.provider.Grant({ clientId: ctx.oidc.client.clientId, accountId: ctx.oidc.session.accountId })
			grant.addOIDCScope('openid email profile')
			await grant.save()
			return grant
		},
	} as any)
	provider.use(async (ctx: any, next: () => Promise<void>) => {
		if (state.discoveryDown && ctx.path === '/.well-known/openid-configuration') {
			ctx.status = 503
			ctx.body = 'unavailable'
			return
		}
		await next()
		if (ctx.path !== '/token' || state.tamper === 'none' || !ctx.body?.id_token) return
		const claims = jose.decodeJwt(ctx.body.id_token)
		const now = Math.floor(Date.now() / 1000)
		if (state.tamper === 'wrong-audience') claims.aud = 'some-other-app'
		if (state.tamper === 'wrong-issuer') claims.iss = 'https://another-provider.example'
		if (state.tamper === 'wrong-nonce') claims.nonce = 'the-nonce-of-another-sign-in'
		if (state.tamper === 'expired') Object.assign(claims, { iat: now - 7200, exp: now - 3600 })
		if (state.tamper === 'other-email') claims.email = state.otherEmail
		if (state.tamper === 'clock-ahead') Object.assign(claims, { iat: now + state.clockAhead, nbf: now + state.clockAhead, exp: now + state.clockAhead + 3600 })
		const key = state.tamper === 'foreign-key' ? foreign : await jose.importJWK(signing, 'RS256')
		ctx.body = { ...ctx.body, id_token: await new jose.SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'test-key' }).sign(key) }
	})
	server.on('request', (req) => state.requests.push(`${req.method} ${req.url}`))
	server.on('request', provider.callback())
	return state
}

/**
 * Goes through the provider's login form as a browser would (cookies kept, redirects followed)
 * from the authorization address until the provider sends the browser back to `redirectUri`:
 * returns that address (with `code` and `state`).
 */
export async function loginAt(authorizationUrl: string, login: string, redirectUri: string): Promise<string> {
	const jar = new Map<string, string>()
	const send = async (url: string, init: RequestInit = {}) => {
		const res = await fetch(url, {
			...init,
			redirect: 'manual',
			headers: { ...(init.headers as Record<string, string>), cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; ') },
		})
		for (const line of res.headers.getSetCookie()) {
			const [pair] = line.split(';')
			const eq = pair!.indexOf('=')
			jar.set(pair!.slice(0, eq).trim(), pair!.slice(eq + 1).trim())
		}
		return res
	}
	let url = authorizationUrl
	for (let hop = 0; hop < 12; hop++) {
		if (url.startsWith(redirectUri)) return url
		const res = await send(url)
		const location = res.headers.get('location')
		if (location) {
			url = new URL(location, url).href
			continue
		}
		const page = await res.text()
		const action = /<form[^>]*action="([^"]+)"/.exec(page)?.[1]
		if (!action) throw new Error(`the provider's page has no form: ${res.status} ${page.slice(0, 200)}`)
		const posted = await send(new URL(action, url).href, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: new URLSearchParams({ prompt: 'login', login, password: 'any password' }).toString(),
		})
		const next = posted.headers.get('location')
		if (!next) throw new Error(`the provider's login form answered ${posted.status}: ${(await posted.text()).slice(0, 200)}`)
		url = new URL(next, url).href
	}
	throw new Error('the provider never sent the browser back')
}

/**
 * A server of discovery documents only, on a loopback port: `issuers` maps a path (`/tenant`) to the
 * issuer its document names (a provider written with or without a trailing slash). Enough for an
 * owner's **Save and check**, which reads the document and nothing else.
 */
export async function startDiscoveryDocuments(issuers: (base: string) => Record<string, string>): Promise<{ base: string; stop(): Promise<void> }> {
	const server: Server = createServer()
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
	const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`
	const named = issuers(base)
	server.on('request', (req, res) => {
		const path = (req.url ?? '').replace(/\/\.well-known\/openid-configuration$/, '')
		const issuer = named[path]
		if (!issuer) return res.writeHead(404).end()
		res.writeHead(200, { 'content-type': 'application/json' }).end(
			JSON.stringify({
				issuer,
				authorization_endpoint: `${base}${path}/auth`,
				token_endpoint: `${base}${path}/token`,
				jwks_uri: `${base}${path}/jwks`,
				response_types_supported: ['code'],
				subject_types_supported: ['public'],
				id_token_signing_alg_values_supported: ['RS256'],
			}),
		)
	})
	return { base, stop: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}
