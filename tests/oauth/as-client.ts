/**
 * A spec-strict OAuth client (oauth4webapi) against the app in-process, for the security checklist:
 * discovery, registration, the authorization request, consent through a signed-in portal session,
 * and the token exchange. Raw helpers send what a well-behaved client never would.
 */
import * as oauth from 'oauth4webapi'
import type { AppDeps } from '../../core/deps.ts'
import { newPerson, newWorkspace, type TestWorkspace } from '../helpers.ts'
import { portalApp, signedIn, uniqueAddress, type PortalClient } from '../portal.ts'

export interface AS {
	deps: AppDeps
	base: string
	resource: string
	as: oauth.AuthorizationServer
	/** Options every oauth4webapi call gets: in-process fetch, plain http allowed. */
	opts: { [oauth.customFetch]: (url: string, init: any) => Promise<Response>; [oauth.allowInsecureRequests]: true }
	/** A request to the app in-process from a client address of its own. */
	http(url: string, init?: RequestInit): Promise<Response>
}

let cached: Promise<AS> | undefined

export function authServer(): Promise<AS> {
	cached ??= portalApp().then(({ app, deps }) => authServerOn(app, deps))
	return cached
}

/** The same for a given app (e.g. one on a database of its own); it must trust `X-Forwarded-For`. */
export async function authServerOn(app: { handle(request: Request): Promise<Response> }, deps: AppDeps): Promise<AS> {
	const base = deps.config.baseUrl
	const address = uniqueAddress()
	const http = (url: string, init: RequestInit = {}) => {
		const headers = new Headers(init.headers)
		if (!headers.has('x-forwarded-for')) headers.set('x-forwarded-for', address)
		return app.handle(new Request(new URL(url, base), { ...init, headers }))
	}
	const opts = { [oauth.customFetch]: (url: string, init: any) => http(url, init), [oauth.allowInsecureRequests]: true as const }
	const as = await oauth.processDiscoveryResponse(new URL(base), await oauth.discoveryRequest(new URL(base), { ...opts, algorithm: 'oauth2' }))
	return { deps, base, resource: `${base}/api/mcp`, as, opts, http }
}

export const LOOPBACK_REDIRECT = 'http://127.0.0.1:43123/callback'

/** Dynamic registration through oauth4webapi (each from its own client address: DCR is rate limited per address). */
export async function registerApp(ctx: AS, metadata: Record<string, unknown> = {}) {
	const res = await oauth.dynamicClientRegistrationRequest(
		ctx.as,
		{
			client_name: 'Checklist app',
			redirect_uris: [LOOPBACK_REDIRECT],
			token_endpoint_auth_method: 'none',
			grant_types: ['authorization_code', 'refresh_token'],
			...metadata,
		},
		{ ...ctx.opts, headers: { 'x-forwarded-for': uniqueAddress() } },
	)
	const client = await oauth.processDynamicClientRegistrationResponse(res)
	return { client, redirectUri: (client.redirect_uris as string[])[0]! }
}

/** A raw registration request (for bodies oauth4webapi would not send). */
export async function registerRaw(ctx: AS, body: unknown, address = uniqueAddress()) {
	const res = await ctx.http('/oauth/register', {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
		body: typeof body === 'string' ? body : JSON.stringify(body),
	})
	return { status: res.status, headers: res.headers, json: (await res.json().catch(() => undefined)) as any }
}

export interface Person {
	ws: TestWorkspace
	person: { email: string; password: string; userId: string }
	portal: PortalClient
}

export async function signedInPerson(role = 'owner', ws?: TestWorkspace): Promise<Person> {
	const { deps } = await authServer()
	ws ??= await newWorkspace(deps)
	const person = await newPerson(ws, role, {}, deps)
	return { ws, person, portal: await signedIn(person) }
}

export interface AuthRequest {
	url: URL
	verifier: string
	state: string
}

/** An authorization request as a correct client builds it; `extra` overrides (null removes). */
export async function authorizationRequest(
	ctx: AS,
	client: oauth.Client,
	redirectUri: string,
	extra: Record<string, string | null> = {},
): Promise<AuthRequest> {
	const verifier = oauth.generateRandomCodeVerifier()
	const state = oauth.generateRandomState()
	const url = new URL(ctx.as.authorization_endpoint!)
	const params: Record<string, string | null> = {
		client_id: client.client_id,
		redirect_uri: redirectUri,
		response_type: 'code',
		code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
		code_challenge_method: 'S256',
		state,
		resource: ctx.resource,
		scope: 'mcp',
		...extra,
	}
	for (const [k, v] of Object.entries(params)) if (v !== null) url.searchParams.set(k, v)
	return { url, verifier, state: params.state ?? '' }
}

const unescapeHtml = (s: string) => s.replace(/&(amp|lt|gt|quot|#39);/g, (_, e) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e as string]!)

/** The one-time token of a consent page's form (modules/auth/oauth/consent.ts). */
export const consentToken = (html: string) => /name="consent" value="([^"]*)"/.exec(html)![1]!

/** Opens the consent page as the signed-in person and presses a button; returns the redirect. */
export async function consent(portal: PortalClient, url: URL, choice: { decision?: 'allow' | 'cancel'; readOnly?: boolean } = {}) {
	const page = await portal.get(url.pathname + url.search)
	if (page.status !== 200) return { page, status: page.status, location: page.headers.get('location') ? new URL(page.headers.get('location')!, url) : null }
	const request = unescapeHtml(/name="request" value="([^"]*)"/.exec(page.text)![1]!)
	const res = await portal.post('/oauth/authorize', {
		request,
		consent: consentToken(page.text),
		decision: choice.decision ?? 'allow',
		...(choice.readOnly ? { read_only: '1' } : {}),
	})
	return { page, status: res.status, location: res.headers.get('location') ? new URL(res.headers.get('location')!) : null }
}

/** The whole flow for a fresh app and person: returns the validated tokens and what produced them. */
export async function connectedApp(options: { role?: string; readOnly?: boolean; who?: Person; metadata?: Record<string, unknown> } = {}) {
	const ctx = await authServer()
	const who = options.who ?? (await signedInPerson(options.role))
	const { client, redirectUri } = await registerApp(ctx, options.metadata)
	const request = await authorizationRequest(ctx, client, redirectUri)
	const { location } = await consent(who.portal, request.url, { readOnly: options.readOnly })
	const params = oauth.validateAuthResponse(ctx.as, client, location!, request.state)
	/** Real time just before the tokens were issued (expiry tests move the clock from there). */
	const issuedAt = Date.now()
	const res = await oauth.authorizationCodeGrantRequest(ctx.as, client, oauth.None(), params, redirectUri, request.verifier, {
		...ctx.opts,
		additionalParameters: { resource: ctx.resource },
	})
	const tokens = await oauth.processAuthorizationCodeResponse(ctx.as, client, res)
	return { ctx, ...who, client, redirectUri, issuedAt, tokens: tokens as oauth.TokenEndpointResponse & { refresh_token: string } }
}

/** A code, not yet exchanged (for token-endpoint tests). */
export async function freshCode(options: { who?: Person; readOnly?: boolean } = {}) {
	const ctx = await authServer()
	const who = options.who ?? (await signedInPerson())
	const { client, redirectUri } = await registerApp(ctx)
	const request = await authorizationRequest(ctx, client, redirectUri)
	/** Real time just before the code was issued (expiry tests move the clock from there). */
	const issuedAt = Date.now()
	const { location } = await consent(who.portal, request.url, { readOnly: options.readOnly })
	const params = oauth.validateAuthResponse(ctx.as, client, location!, request.state)
	return { ctx, ...who, client, redirectUri, issuedAt, code: params.get('code')!, params, verifier: request.verifier }
}

/** A raw form post to an OAuth endpoint. */
export async function formPost(ctx: AS, path: string, form: Record<string, string> | string, headers: Record<string, string> = {}) {
	const res = await ctx.http(path, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
		body: typeof form === 'string' ? form : new URLSearchParams(form).toString(),
	})
	const text = await res.text()
	let json: any
	try {
		json = JSON.parse(text)
	} catch {}
	return { status: res.status, headers: res.headers, json, text }
}

/** One JSON-RPC request to /api/mcp (stateless, no initialize needed); the answer's JSON-RPC message. */
export async function mcp(ctx: AS, token: string | null, method: string, params: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
	const res = await ctx.http('/api/mcp', {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			accept: 'application/json, text/event-stream',
			...(token ? { authorization: `Bearer ${token}` } : {}),
			...headers,
		},
		body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
	})
	const text = await res.text()
	const data = res.headers.get('content-type')?.includes('text/event-stream')
		? text
				.split('\n')
				.find((l) => l.startsWith('data: '))
				?.slice(6)
		: text
	let message: any
	try {
		message = JSON.parse(data ?? '')
	} catch {}
	return { status: res.status, headers: res.headers, message }
}
