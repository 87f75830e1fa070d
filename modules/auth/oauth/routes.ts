/**
 * The authorization server's HTTP face: discovery metadata (RFC 9728, RFC 8414), dynamic client
 * registration (RFC 7591), the authorization endpoint with the consent page, the token endpoint
 * and revocation (RFC 7009). Metadata, registration, token and revocation allow any browser origin
 * (they carry no cookies); the authorization endpoint has no CORS at all.
 */
import { Elysia, t } from 'elysia'
import type { AppDeps } from '../../../core/deps.ts'
import { clientAddress } from '../../../core/http/client-address.ts'
import { countFailedCredential, failedCredentialsWait } from '../../../core/http/failed-credentials.ts'
import { AppError, type FieldError } from '../../../core/errors.ts'
import { answersUnreadableText, unreadableFields, unreadableFormText } from '../../../core/http/query.ts'
import { readBodyText } from '../../../core/http/body.ts'
import { applyCors, preflight } from '../../../core/http/cors.ts'
import type { HttpKit } from '../../../core/module.ts'
import type { PageSession } from '../../../core/http/auth.ts'
import { resolvePageSession } from '../sessions.ts'
import { switchableWorkspaces } from '../workspace-switch.ts'
import {
	type AuthorizationRequest,
	authorizationParams,
	AuthorizePageError,
	AuthorizeRedirectError,
	checkRequest,
	issueCode,
	mcpResource,
	redirectWith,
	SCOPES,
	type Target,
	trustedTarget,
} from './authorize.ts'
import { registerClient } from './clients.ts'
import { storable } from './client-text.ts'
import { openConsent, takeConsent } from './consent.ts'
import { OAuthError, oauthErrorResponse } from './errors.ts'
import { knownInWorkspace } from './client-documents.ts'
import { authorizeErrorPage, consentPage } from './pages.ts'
import { refreshTokens } from './refresh.ts'
import { exchangeCode, revokeToken } from './tokens.ts'

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' }
/** Registrations allowed per client address and minute. */
const REGISTRATIONS_PER_MINUTE = 20
/** Revocation requests allowed per client address and minute (RFC 7009 §2: guard against abuse). */
const REVOCATIONS_PER_MINUTE = 120

export function protectedResourceMetadata(deps: AppDeps) {
	return {
		resource: mcpResource(deps),
		authorization_servers: [deps.config.baseUrl],
		scopes_supported: [...SCOPES],
		bearer_methods_supported: ['header'],
		resource_name: 'Benchline',
		resource_documentation: `${deps.config.baseUrl}/help/assistants`,
	}
}

export function authorizationServerMetadata(deps: AppDeps) {
	const base = deps.config.baseUrl
	return {
		issuer: base,
		authorization_endpoint: `${base}/oauth/authorize`,
		token_endpoint: `${base}/oauth/token`,
		registration_endpoint: `${base}/oauth/register`,
		revocation_endpoint: `${base}/oauth/revoke`,
		response_types_supported: ['code'],
		response_modes_supported: ['query'],
		grant_types_supported: ['authorization_code', 'refresh_token'],
		code_challenge_methods_supported: ['S256'],
		token_endpoint_auth_methods_supported: ['none'],
		revocation_endpoint_auth_methods_supported: ['none'],
		scopes_supported: [...SCOPES],
		authorization_response_iss_parameter_supported: true,
		// A client may be known by the address of its metadata document (client-documents.ts).
		client_id_metadata_document_supported: true,
	}
}

async function readForm(request: Request): Promise<URLSearchParams> {
	if (!(request.headers.get('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded'))
		throw new OAuthError('invalid_request', 'Send the parameters as application/x-www-form-urlencoded')
	let text: string
	try {
		text = await readBodyText(request, 16 * 1024)
	} catch {
		throw new OAuthError('invalid_request', 'The request body is too large')
	}
	// A parameter with a broken %-escape is malformed (`invalid_request`), never read as sent: the token and revocation
	// routes declare `answersUnreadableText`, so this is their answer to it rather than the app's generic 400.
	const unreadable = unreadableFormText(text)[0]
	if (unreadable) throw new OAuthError('invalid_request', unreadable.message)
	// RFC 6749 §3.2: a parameter sent without a value counts as left out.
	const form = new URLSearchParams([...new URLSearchParams(text)].filter(([, value]) => value !== ''))
	for (const key of new Set(form.keys())) {
		if (form.getAll(key).length > 1) throw new OAuthError('invalid_request', `The parameter ${key} is given more than once`)
		// Refused here, as an OAuth error: the database cannot hold it (its refusal would be a generic 422).
		if (!storable(key) || !form.getAll(key).every(storable))
			throw new OAuthError('invalid_request', `The parameter ${key} contains characters that cannot be used (such as a NUL character)`)
	}
	return form
}

/**
 * A public client has no secret: one presented anyway means a misconfigured client. The metadata
 * declares `none` only, so every other way of authenticating is refused, not ignored: a secret
 * (`client_secret_post`), an Authorization header (`client_secret_basic`), a client assertion
 * (`private_key_jwt`, RFC 7523). When it came in an Authorization header, RFC 6749 §5.2 wants a 401
 * with a challenge for the same scheme.
 */
function refuseClientSecrets(request: Request, form: URLSearchParams) {
	const header = request.headers.get('authorization')
	if (!header && !['client_secret', 'client_assertion', 'client_assertion_type'].some((key) => form.has(key))) return
	const scheme = /^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*/.exec(header ?? '')?.[0] ?? 'Basic'
	throw new OAuthError(
		'invalid_client',
		'This client is public (token_endpoint_auth_method none): send client_id only, without a secret, a client assertion or an Authorization header',
		401,
		header ? { 'WWW-Authenticate': `${scheme} realm="benchline"` } : {},
	)
}

/**
 * The error code of every rate-limit refusal of the OAuth endpoints (with 429 and Retry-After).
 * RFC 6749 §5.2 and OAuth 2.1 define no code for it, and `slow_down` is the device flow's "poll more
 * slowly" (RFC 8628 §3.5), which clients of the code and refresh grants do not know: the MCP SDK 1.x
 * reads a code it does not know as server_error, and a refresh refused with server_error sends the
 * person to sign in and Allow again. `temporarily_unavailable` is a registered code (RFC 6749
 * §4.1.2.1, §11.4: the server is temporarily overloaded) that both SDK generations know: the refresh
 * fails with that error, the app's tokens are kept, and a later retry succeeds.
 */
const RATE_LIMITED = 'temporarily_unavailable'

/** Refuses a client address over its per-minute budget for an endpoint (429 with Retry-After). */
async function limitAddress(deps: AppDeps, key: string, perMinute: number, what: string) {
	const decision = await deps.limiter.hit(key, perMinute)
	if (!decision.allowed)
		throw new OAuthError(RATE_LIMITED, `Too many ${what}; retry in ${decision.resetSeconds} seconds`, 429, { 'Retry-After': String(decision.resetSeconds) })
}

type ResponseHeaders = Record<string, string | number>

/** The JSON endpoints' answer: CORS for any origin, no caching, and an OAuthError as its RFC 6749 error response. */
async function answer(deps: AppDeps, request: Request, set: { headers: ResponseHeaders }, work: () => Promise<Response | object>) {
	applyCors(deps.config, request, set.headers, ANY_ORIGIN)
	try {
		const result = await work()
		return result instanceof Response ? result : Response.json(result, { headers: { ...NO_STORE, ...(set.headers as Record<string, string>) } })
	} catch (error) {
		if (error instanceof OAuthError) return oauthErrorResponse(error, set.headers as Record<string, string>)
		throw error
	}
}

const ANY_ORIGIN = { anyOrigin: true }

/** Dynamic client registration (RFC 7591), limited per client address. */
async function registration(deps: AppDeps, request: Request, headers: ResponseHeaders) {
	await limitAddress(deps, `dcr:${clientAddress(deps.config, request)}`, REGISTRATIONS_PER_MINUTE, 'registrations')
	let body: unknown
	try {
		body = JSON.parse(await readBodyText(request, 64 * 1024))
	} catch {
		throw new OAuthError('invalid_client_metadata', 'The registration body must be JSON (at most 64 KB)')
	}
	return Response.json(await registerClient(deps, body), { status: 201, headers: { ...NO_STORE, ...(headers as Record<string, string>) } })
}

/** The token endpoint: a code or a refresh token for tokens. Codes and refresh tokens are credentials: failures count with the bearer doors' (per address). */
async function tokenGrant(deps: AppDeps, request: Request) {
	const address = clientAddress(deps.config, request)
	const wait = await failedCredentialsWait(deps, address)
	if (wait)
		throw new OAuthError(
			RATE_LIMITED,
			`Too many failed codes, refresh tokens or clients from this address; retry in ${wait.seconds} seconds`,
			429,
			wait.headers,
		)
	try {
		const form = await readForm(request)
		refuseClientSecrets(request, form)
		const grant = form.get('grant_type')
		if (grant === 'authorization_code') return await exchangeCode(deps, form)
		if (grant === 'refresh_token') return await refreshTokens(deps, form)
		throw new OAuthError(grant ? 'unsupported_grant_type' : 'invalid_request', grant ? `grant_type ${grant} is not supported` : 'grant_type is required')
	} catch (error) {
		if (error instanceof OAuthError && (error.error === 'invalid_grant' || error.error === 'invalid_client'))
			await countFailedCredential(deps, address, 'oauth')
		throw error
	}
}

/** Revocation (RFC 7009), limited per client address. */
async function revocation(deps: AppDeps, request: Request, headers: ResponseHeaders) {
	await limitAddress(deps, `revoke:${clientAddress(deps.config, request)}`, REVOCATIONS_PER_MINUTE, 'revocation requests')
	const form = await readForm(request)
	refuseClientSecrets(request, form)
	await revokeToken(deps, form)
	return new Response(null, { status: 200, headers: { ...NO_STORE, ...(headers as Record<string, string>) } })
}

/** Where the authorization endpoint sends the browser (303), or the page it shows. */
type AuthorizeAnswer = Response | { seeOther: string }

/** The client and redirect address the request names, or our own error page when they cannot be trusted. */
async function targetOf(deps: AppDeps, params: URLSearchParams, unreadable: readonly FieldError[] = []): Promise<Target | Response> {
	try {
		return await trustedTarget(deps, params, unreadable)
	} catch (error) {
		if (error instanceof AuthorizePageError) return authorizeErrorPage(error.message)
		throw error
	}
}

/**
 * GET /oauth/authorize: the whole request is checked before anyone is asked to sign in (a request
 * that cannot succeed never sends the person through sign-in first), then the consent page.
 */
async function authorizeRequest(deps: AppDeps, request: Request, cookie: Record<string, any>): Promise<AuthorizeAnswer> {
	const url = new URL(request.url)
	const params = authorizationParams(url.searchParams)
	// This route answers a query that cannot be read itself (`answersUnreadableText`), by OAuth's rules.
	const unreadable = unreadableFields(request.url)
	const target = await targetOf(deps, params, unreadable)
	if (target instanceof Response) return target
	let authorization: AuthorizationRequest
	try {
		authorization = checkRequest(deps, target, params, unreadable)
	} catch (error) {
		if (!(error instanceof AuthorizeRedirectError)) throw error
		// Nothing is sent back to the app before sign-in, errors included (no open redirector):
		// an anonymous visitor sees our own page.
		if (!(await resolvePageSession(deps, request, cookie)))
			return authorizeErrorPage(
				`The app’s request cannot be accepted: ${error.description} (${error.error}). This is a problem in the app, not in your account: signing in would not help.`,
			)
		const state = unreadable.some((f) => f.field === 'state') ? null : params.get('state')
		return { seeOther: redirectWith(deps, target.redirectUri, { error: error.error, error_description: error.description, state }) }
	}
	const session = await resolvePageSession(deps, request, cookie)
	if (!session) return { seeOther: `/sign-in?next=${encodeURIComponent(url.pathname + url.search)}` }
	// A temporary password is replaced before any app is allowed in (then back here).
	if (session.mustVisit) return { seeOther: `${session.mustVisit.path}?next=${encodeURIComponent(url.pathname + url.search)}` }
	const query = url.search.slice(1)
	return consentPage(
		session,
		authorization,
		query,
		await openConsent(deps, session, target.client.id, query),
		await switchableWorkspaces(deps, session),
		!(await knownInWorkspace(deps, target.client.id, session.actor.workspaceId)),
	)
}

/** POST /oauth/authorize: the person's answer on the consent page (one answer per page), back to the app with a code or an error. */
async function authorizeDecision(deps: AppDeps, session: PageSession, fields: Record<string, string>): Promise<AuthorizeAnswer> {
	// One answer per consent page: the form's own token is used up here (replays find nothing).
	if (!(await takeConsent(deps, session, fields.consent, String(fields.request ?? ''))))
		throw new AppError('FORBIDDEN', 'This consent page has expired or was already answered. Start again from the app.')
	const params = authorizationParams(new URLSearchParams(String(fields.request ?? '')))
	const unreadable = unreadableFields(`?${String(fields.request ?? '')}`)
	const target = await targetOf(deps, params, unreadable)
	if (target instanceof Response) return target
	const state = unreadable.some((f) => f.field === 'state') ? null : params.get('state')
	try {
		const request = checkRequest(deps, target, params, unreadable)
		if (fields.decision !== 'allow')
			return { seeOther: redirectWith(deps, target.redirectUri, { error: 'access_denied', error_description: 'The person cancelled', state }) }
		if (!session.actor.userId) throw new AppError('FORBIDDEN', 'Only a person can allow an app')
		const code = await issueCode(deps, session.actor, request, fields.read_only === '1' || request.readOnlyRequested)
		return { seeOther: redirectWith(deps, target.redirectUri, { code, state }) }
	} catch (error) {
		if (!(error instanceof AuthorizeRedirectError)) throw error
		return { seeOther: redirectWith(deps, target.redirectUri, { error: error.error, error_description: error.description, state }) }
	}
}

export function oauthRoutes(deps: AppDeps, { auth }: HttpKit) {
	const cors =
		(methods: string) =>
		({ request }: { request: Request }) =>
			preflight(deps.config, request, methods, ANY_ORIGIN)
	const go = (answer: AuthorizeAnswer, redirect: (url: string, status: 303) => unknown) =>
		answer instanceof Response ? answer : redirect(answer.seeOther, 303)
	return new Elysia({ name: 'auth.oauth' })
		.use(auth)
		.get('/.well-known/oauth-protected-resource', ({ request, set }) => answer(deps, request, set, async () => protectedResourceMetadata(deps)), {
			auth: 'public',
		})
		.get('/.well-known/oauth-protected-resource/api/mcp', ({ request, set }) => answer(deps, request, set, async () => protectedResourceMetadata(deps)), {
			auth: 'public',
		})
		.get('/.well-known/oauth-authorization-server', ({ request, set }) => answer(deps, request, set, async () => authorizationServerMetadata(deps)), {
			auth: 'public',
		})
		.options('/.well-known/*', cors('GET, OPTIONS'), { auth: 'public' })
		.options('/oauth/register', cors('POST, OPTIONS'), { auth: 'public' })
		.options('/oauth/token', cors('POST, OPTIONS'), { auth: 'public' })
		.options('/oauth/revoke', cors('POST, OPTIONS'), { auth: 'public' })
		.post('/oauth/register', ({ request, set }) => answer(deps, request, set, () => registration(deps, request, set.headers)), {
			auth: 'public',
			parse: 'none',
		})
		.post('/oauth/token', ({ request, set }) => answer(deps, request, set, () => tokenGrant(deps, request)), {
			auth: 'public',
			parse: 'none',
			transform: answersUnreadableText,
		})
		.post('/oauth/revoke', ({ request, set }) => answer(deps, request, set, () => revocation(deps, request, set.headers)), {
			auth: 'public',
			parse: 'none',
			transform: answersUnreadableText,
		})
		.get('/oauth/authorize', async ({ request, cookie, redirect }) => go(await authorizeRequest(deps, request, cookie), redirect), {
			auth: 'public',
			transform: answersUnreadableText,
		})
		.post('/oauth/authorize', async ({ body, session, redirect }) => go(await authorizeDecision(deps, session, body as Record<string, string>), redirect), {
			session: 'signed-in',
			body: t.Object({ csrf: t.Optional(t.String()), consent: t.Optional(t.String()) }, { additionalProperties: true }),
		})
}
