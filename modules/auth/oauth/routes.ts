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
import { AppError } from '../../../core/errors.ts'
import { readBodyText } from '../../../core/http/body.ts'
import { applyCors, preflight } from '../../../core/http/cors.ts'
import type { HttpKit } from '../../../core/module.ts'
import { resolvePageSession } from '../sessions.ts'
import { workspacesOf } from '../sign-in-choice.ts'
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
import { openConsent, takeConsent } from './consent.ts'
import { OAuthError, oauthErrorResponse } from './errors.ts'
import { knownInWorkspace } from './client-documents.ts'
import { authorizeErrorPage, consentPage } from './pages.ts'
import { exchangeCode, refreshTokens, revokeToken } from './tokens.ts'

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
	// RFC 6749 §3.2: a parameter sent without a value counts as left out.
	const form = new URLSearchParams([...new URLSearchParams(text)].filter(([, value]) => value !== ''))
	for (const key of new Set(form.keys()))
		if (form.getAll(key).length > 1) throw new OAuthError('invalid_request', `The parameter ${key} is given more than once`)
	return form
}

/**
 * A public client has no secret: one presented anyway means a misconfigured client. When it came
 * in an Authorization header, RFC 6749 §5.2 wants a 401 with a challenge for the same scheme.
 */
function refuseClientSecrets(request: Request, form: URLSearchParams) {
	const header = request.headers.get('authorization')
	if (!header && !form.has('client_secret')) return
	const scheme = /^[A-Za-z][A-Za-z0-9!#$%&'*+.^_`|~-]*/.exec(header ?? '')?.[0] ?? 'Basic'
	throw new OAuthError(
		'invalid_client',
		'This client is public (token_endpoint_auth_method none): send client_id only, without a secret or Authorization header',
		401,
		header ? { 'WWW-Authenticate': `${scheme} realm="benchline"` } : {},
	)
}

/** Refuses a client address over its per-minute budget for an endpoint (429 with Retry-After). */
async function limitAddress(deps: AppDeps, key: string, perMinute: number, what: string) {
	const decision = await deps.limiter.hit(key, perMinute)
	if (!decision.allowed)
		throw new OAuthError('slow_down', `Too many ${what}; retry in ${decision.resetSeconds} seconds`, 429, { 'Retry-After': String(decision.resetSeconds) })
}

export function oauthRoutes(deps: AppDeps, { auth }: HttpKit) {
	const anyOrigin = { anyOrigin: true }
	const answer = async (request: Request, set: { headers: Record<string, string | number> }, work: () => Promise<Response | object>) => {
		applyCors(deps.config, request, set.headers, anyOrigin)
		try {
			const result = await work()
			return result instanceof Response ? result : Response.json(result, { headers: { ...NO_STORE, ...(set.headers as Record<string, string>) } })
		} catch (error) {
			if (error instanceof OAuthError) return oauthErrorResponse(error, set.headers as Record<string, string>)
			throw error
		}
	}

	return new Elysia({ name: 'auth.oauth' })
		.use(auth)
		.get('/.well-known/oauth-protected-resource', ({ request, set }) => answer(request, set, async () => protectedResourceMetadata(deps)), { auth: 'public' })
		.get('/.well-known/oauth-protected-resource/api/mcp', ({ request, set }) => answer(request, set, async () => protectedResourceMetadata(deps)), {
			auth: 'public',
		})
		.get('/.well-known/oauth-authorization-server', ({ request, set }) => answer(request, set, async () => authorizationServerMetadata(deps)), {
			auth: 'public',
		})
		.options('/.well-known/*', ({ request }) => preflight(deps.config, request, 'GET, OPTIONS', anyOrigin), { auth: 'public' })
		.options('/oauth/register', ({ request }) => preflight(deps.config, request, 'POST, OPTIONS', anyOrigin), { auth: 'public' })
		.options('/oauth/token', ({ request }) => preflight(deps.config, request, 'POST, OPTIONS', anyOrigin), { auth: 'public' })
		.options('/oauth/revoke', ({ request }) => preflight(deps.config, request, 'POST, OPTIONS', anyOrigin), { auth: 'public' })
		.post(
			'/oauth/register',
			({ request, set }) =>
				answer(request, set, async () => {
					await limitAddress(deps, `dcr:${clientAddress(deps.config, request)}`, REGISTRATIONS_PER_MINUTE, 'registrations')
					let body: unknown
					try {
						body = JSON.parse(await readBodyText(request, 64 * 1024))
					} catch {
						throw new OAuthError('invalid_client_metadata', 'The registration body must be JSON (at most 64 KB)')
					}
					return Response.json(await registerClient(deps, body), { status: 201, headers: { ...NO_STORE, ...(set.headers as Record<string, string>) } })
				}),
			{ auth: 'public', parse: 'none' },
		)
		.post(
			'/oauth/token',
			({ request, set }) =>
				answer(request, set, async () => {
					// Codes and refresh tokens are credentials: failures count with the bearer doors' (per address).
					const address = clientAddress(deps.config, request)
					const wait = await failedCredentialsWait(deps, address)
					if (wait)
						throw new OAuthError(
							'slow_down',
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
						throw new OAuthError(
							grant ? 'unsupported_grant_type' : 'invalid_request',
							grant ? `grant_type ${grant} is not supported` : 'grant_type is required',
						)
					} catch (error) {
						if (error instanceof OAuthError && (error.error === 'invalid_grant' || error.error === 'invalid_client'))
							await countFailedCredential(deps, address, 'oauth')
						throw error
					}
				}),
			{ auth: 'public', parse: 'none' },
		)
		.post(
			'/oauth/revoke',
			({ request, set }) =>
				answer(request, set, async () => {
					await limitAddress(deps, `revoke:${clientAddress(deps.config, request)}`, REVOCATIONS_PER_MINUTE, 'revocation requests')
					const form = await readForm(request)
					refuseClientSecrets(request, form)
					await revokeToken(deps, form)
					return new Response(null, { status: 200, headers: { ...NO_STORE, ...(set.headers as Record<string, string>) } })
				}),
			{ auth: 'public', parse: 'none' },
		)
		.get(
			'/oauth/authorize',
			async ({ request, cookie, redirect }) => {
				const url = new URL(request.url)
				const params = authorizationParams(url.searchParams)
				let target: Target
				try {
					target = await trustedTarget(deps, params)
				} catch (error) {
					if (error instanceof AuthorizePageError) return authorizeErrorPage(error.message)
					throw error
				}
				// The whole request is checked before anyone is asked to sign in: a request that cannot
				// succeed never sends the person through sign-in first.
				let authorization: AuthorizationRequest
				try {
					authorization = checkRequest(deps, target, params)
				} catch (error) {
					if (!(error instanceof AuthorizeRedirectError)) throw error
					const session = await resolvePageSession(deps, request, cookie)
					// Nothing is sent back to the app before sign-in, errors included (no open redirector):
					// an anonymous visitor sees our own page.
					if (!session)
						return authorizeErrorPage(
							`The app’s request cannot be accepted: ${error.description} (${error.error}). This is a problem in the app, not in your account: signing in would not help.`,
						)
					return redirect(redirectWith(deps, target.redirectUri, { error: error.error, error_description: error.description, state: params.get('state') }), 303)
				}
				const session = await resolvePageSession(deps, request, cookie)
				if (!session) return redirect(`/sign-in?next=${encodeURIComponent(url.pathname + url.search)}`, 303)
				// A temporary password is replaced before any app is allowed in (then back here).
				if (session.mustVisit) return redirect(`${session.mustVisit.path}?next=${encodeURIComponent(url.pathname + url.search)}`, 303)
				const query = url.search.slice(1)
				return consentPage(
					session,
					authorization,
					query,
					await openConsent(deps, session, target.client.id, query),
					await workspacesOf(deps.db, session.actor.userId!),
					!(await knownInWorkspace(deps, target.client.id, session.actor.workspaceId)),
				)
			},
			{ auth: 'public' },
		)
		.post(
			'/oauth/authorize',
			async ({ body, session, redirect }) => {
				const fields = body as Record<string, string>
				// One answer per consent page: the form's own token is used up here (replays find nothing).
				if (!(await takeConsent(deps, session, fields.consent, String(fields.request ?? ''))))
					throw new AppError('FORBIDDEN', 'This consent page has expired or was already answered. Start again from the app.')
				const params = authorizationParams(new URLSearchParams(String(fields.request ?? '')))
				let target: Target
				try {
					target = await trustedTarget(deps, params)
				} catch (error) {
					if (error instanceof AuthorizePageError) return authorizeErrorPage(error.message)
					throw error
				}
				const state = params.get('state')
				try {
					const request = checkRequest(deps, target, params)
					if (fields.decision !== 'allow')
						return redirect(redirectWith(deps, target.redirectUri, { error: 'access_denied', error_description: 'The person cancelled', state }), 303)
					if (!session.actor.userId) throw new AppError('FORBIDDEN', 'Only a person can allow an app')
					const code = await issueCode(deps, session.actor, request, fields.read_only === '1' || request.readOnlyRequested)
					return redirect(redirectWith(deps, target.redirectUri, { code, state }), 303)
				} catch (error) {
					if (!(error instanceof AuthorizeRedirectError)) throw error
					return redirect(redirectWith(deps, target.redirectUri, { error: error.error, error_description: error.description, state }), 303)
				}
			},
			{ session: 'signed-in', body: t.Object({ csrf: t.Optional(t.String()), consent: t.Optional(t.String()) }, { additionalProperties: true }) },
		)
}
