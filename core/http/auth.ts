/**
 * Authentication and permissions for REST routes and pages, as one Elysia macro: every route
 * declares `auth`, and a test checks that no route in the app's route table lacks it.
 *
 *   auth: 'public'                 anyone (careers pages, health, OAuth endpoints)
 *   auth: 'form'                   anyone, but a form post must carry the double-submit CSRF token
 *   auth: 'vendor'                 a vendor API key (`Authorization: Bearer bl_vk_…`), rate limited
 *   auth: 'vendor-key'             the same, but the route looks the key up inside its own statement
 *                                  (publish: one round trip instead of two); the route gets `vendorKey`
 *                                  and keeps the precedence by checking the key on its error paths
 *   auth: 'mcp'                    a personal token or OAuth access token for `/api/mcp`, rate limited;
 *                                  a foreign browser Origin is 403; 401s point at the resource metadata
 *   auth: 'signed-in'              a person with a portal session (pages); posts are CSRF-checked
 *   auth: { permission: 'x:y' }    a signed-in person whose role or grants include the permission
 *
 * Error precedence on the REST door follows design.md: 401, 403, 429, then the body (413, 400).
 * Exceptions: the per-address limits are decided before the credential is looked up, so a 429
 * from them comes before a 401 (REST requests per address; failed credentials per address on
 * every bearer door, `failed-credentials.ts`).
 */
import { Elysia } from 'elysia'
import type { Actor } from '../actor.ts'
import type { AppDeps } from '../deps.ts'
import { credentialType, hashSecret } from '../credentials.ts'
import { AppError } from '../errors.ts'
import type { CredentialVerifier, PermissionKey } from '../module.ts'
import { parseBearer } from './bearer.ts'
import { clientAddress } from './client-address.ts'
import { applyCors } from './cors.ts'
import { countFailedCredential, failedCredentialsWait } from './failed-credentials.ts'
import { anonymousCsrf, CSRF_COOKIE, verifyCsrf } from './csrf.ts'
import { rateLimitHeaders } from './rate-limit.ts'

/** Header carrying the session's CSRF token on the portal's MCP connection test. */
export const CONNECTION_TEST_HEADER = 'x-benchline-connection-test'

export type AuthSpec = 'public' | 'form' | 'vendor' | 'vendor-key' | 'mcp' | 'signed-in' | { permission: PermissionKey }

/** A signed-in portal session, as pages see it. */
export interface PageSession {
	readonly actor: Actor
	/** Token every form of this session must carry. */
	readonly csrf: string
	readonly sessionId: string
	/**
	 * A page the person must go to before any other (a temporary password to replace): every other
	 * page redirects there (with `next`), every other signed-in request is refused with `reason`.
	 * The session resolver leaves it out on that page itself and on the few it needs (sign-out).
	 */
	readonly mustVisit?: { readonly path: string; readonly reason: string }
}

/** The refusal of a request made before the page the session must visit first. */
function visitFirst(request: Request, mustVisit: NonNullable<PageSession['mustVisit']>): AppError {
	const url = new URL(request.url)
	return new AppError('FORBIDDEN', mustVisit.reason, { location: `${mustVisit.path}?next=${encodeURIComponent(url.pathname + url.search)}` })
}

export interface SessionResolver {
	(deps: AppDeps, request: Request, cookie: Record<string, any>): Promise<PageSession | null>
}

export interface ActorResolvers {
	readonly bearer: readonly CredentialVerifier[]
	readonly session: SessionResolver | null
}

const bearerChallenge = (error?: string) => ({ 'WWW-Authenticate': error ? `Bearer realm="benchline", error="${error}"` : 'Bearer realm="benchline"' })

/** `WWW-Authenticate` for `/api/mcp`: points at the protected resource metadata (RFC 9728). */
export const mcpChallenge = (baseUrl: string, error?: string) => ({
	'WWW-Authenticate': `Bearer resource_metadata="${baseUrl}/.well-known/oauth-protected-resource"${error ? `, error="${error}"` : ''}, scope="mcp"`,
})

/** A bearer credential as presented: well formed, of a known type, not yet looked up. */
export interface PresentedCredential {
	/** SHA-256 of the token: what the database stores, and the rate-limit bucket. */
	readonly hash: string
	/** Looks the credential up: its actor, or 401 (unknown, revoked) or the verifier's own 403. */
	check(): Promise<Actor>
	/** Counts the failure for the client address; the 401 for a credential that is not, or no longer, valid. */
	rejected(): Promise<AppError>
}

/**
 * Reads the `Authorization` header for one door: 401 when it is missing or malformed, or when the
 * token is of no type this door takes or fails its checksum (all without a database query).
 *
 * Every credential that fails (here, in `check` or through `rejected`) is counted for the client
 * address; an address past its budget of failures gets 429 with `Retry-After` before anything is
 * looked up. A missing header is not a failure: it is how clients discover the challenge.
 */
export async function presentedCredential(deps: AppDeps, verifiers: readonly CredentialVerifier[], header: string | null, from: { door: 'rest' | 'mcp'; address: string }): Promise<PresentedCredential> {
	const { door, address } = from
	const challenge = (error?: string) => (door === 'mcp' ? mcpChallenge(deps.config.baseUrl, error) : bearerChallenge(error))
	const what = door === 'mcp' ? 'an access token or personal token' : 'an API key'
	const failed = async (error: AppError) => {
		await countFailedCredential(deps, address)
		return error
	}
	const rejected = () => failed(new AppError('UNAUTHORIZED', door === 'mcp' ? 'The token is not valid, has expired or has been revoked' : 'The API key is not valid or has been revoked', { headers: challenge('invalid_token') }))
	const parsed = parseBearer(header)
	if ('problem' in parsed && parsed.problem === 'missing') throw new AppError('UNAUTHORIZED', `Authentication is required: send Authorization: Bearer <token> with ${what}`, { headers: challenge() })
	const wait = await failedCredentialsWait(deps, address)
	if (wait) throw new AppError('RATE_LIMITED', `Too many failed credentials from this address: wait ${wait.seconds} seconds`, { retryAfter: wait.seconds, headers: wait.headers })
	if ('problem' in parsed) throw await failed(new AppError('UNAUTHORIZED', `The Authorization header is malformed: send Authorization: Bearer <token> with ${what}`, { headers: challenge('invalid_request') }))
	const { token } = parsed
	const verifier = verifiers.find((v) => token.startsWith(v.prefix))
	if (!verifier || !credentialType(token)) throw await rejected()
	return {
		hash: hashSecret(token),
		rejected,
		check: async () => {
			const actor = await verifier.verify(deps, token)
			if (!actor) throw await rejected()
			return actor
		},
	}
}

/**
 * Counts one request for the credential; throws 429 with `Retry-After` over the limit. `before429`
 * runs first when the limit is reached (a key counted before it was looked up: 401 and 403 rank
 * above 429).
 */
export async function enforceRateLimit(deps: AppDeps, key: string, headers: Record<string, string | number>, before429?: () => Promise<unknown>): Promise<void> {
	const decision = await deps.limiter.hit(key)
	const rl = rateLimitHeaders(decision)
	Object.assign(headers, rl)
	if (!decision.allowed) {
		await before429?.()
		headers['Retry-After'] = String(decision.resetSeconds)
		throw new AppError('RATE_LIMITED', `Too many requests: wait ${decision.resetSeconds} seconds`, { retryAfter: decision.resetSeconds, headers: { ...rl, 'Retry-After': String(decision.resetSeconds) } })
	}
}

/**
 * Counts one REST request for the client address before any credential is looked up: a flood of
 * made-up keys from one address is refused (429) without a database query per key. The limit is
 * far above one vendor's, so vendors that share an address are not slowed down.
 */
export async function enforceAddressLimit(deps: AppDeps, address: string): Promise<void> {
	const decision = await deps.limiter.hit(`addr:rest:${address}`, deps.config.rateLimitPerAddressPerMinute)
	if (decision.allowed) return
	const retryAfter = String(decision.resetSeconds)
	throw new AppError('RATE_LIMITED', `Too many requests from this address: wait ${decision.resetSeconds} seconds`, { retryAfter: decision.resetSeconds, headers: { ...rateLimitHeaders(decision, 'address'), 'Retry-After': retryAfter } })
}

/** What every `auth` spec gives the route (one shape, so Elysia can type the context). */
const resolved = (actor: Actor | null, session: PageSession | null, vendorKey: PresentedCredential | null = null) => ({ actor, session, vendorKey })

export function createAuthPlugin(deps: AppDeps, resolvers: ActorResolvers) {
	const restVerifiers = resolvers.bearer.filter((v) => v.door === 'rest')
	const mcpVerifiers = resolvers.bearer.filter((v) => v.door === 'mcp')

	const pageSession = async (request: Request, cookie: Record<string, any>) => {
		const session = resolvers.session ? await resolvers.session(deps, request, cookie) : null
		if (!session) throw new AppError('UNAUTHORIZED', 'Sign in to continue')
		if (session.mustVisit) throw visitFirst(request, session.mustVisit)
		return session
	}
	const checkForm = (request: Request, body: unknown, expected: string) => {
		if (request.method === 'GET' || request.method === 'HEAD') return
		verifyCsrf(deps, request, (body as Record<string, unknown> | null)?.csrf, expected)
	}

	return new Elysia({ name: 'core.auth' }).macro({
		auth(spec: AuthSpec) {
			const resolve = async ({ request, set, cookie, body }: { request: Request; set: { headers: Record<string, string | number> }; cookie: Record<string, any>; body: unknown }) => {
				if (spec === 'public') return resolved(null, null)
				if (spec === 'form') {
					if (request.method !== 'GET') verifyCsrf(deps, request, (body as Record<string, unknown> | null)?.csrf, cookie[CSRF_COOKIE]?.value ?? '')
					else anonymousCsrf(deps, cookie)
					return resolved(null, null)
				}
				if (spec === 'mcp') {
					applyCors(deps.config, request, set.headers)
					// The portal's "Test connection" speaks MCP from the person's own browser with their
					// session: same site, no Authorization header, the session's CSRF token in a header.
					// Such an actor may only look (initialize, tools/list; see core/mcp/handler.ts).
					const testToken = request.headers.get(CONNECTION_TEST_HEADER)
					if (testToken !== null && !request.headers.has('authorization')) {
						const session = await pageSession(request, cookie)
						verifyCsrf(deps, request, testToken, session.csrf)
						await enforceRateLimit(deps, `cred:${session.sessionId}`, set.headers)
						return resolved({ ...session.actor, credential: { ...session.actor.credential, name: 'portal connection test' } }, session)
					}
					const presented = await presentedCredential(deps, mcpVerifiers, request.headers.get('authorization'), { door: 'mcp', address: clientAddress(deps.config, request) })
					const actor = await presented.check()
					await enforceRateLimit(deps, `cred:${actor.credential.id}`, set.headers)
					return resolved(actor, null)
				}
				if (spec === 'vendor' || spec === 'vendor-key') {
					const address = clientAddress(deps.config, request)
					await enforceAddressLimit(deps, address)
					const key = await presentedCredential(deps, restVerifiers, request.headers.get('authorization'), { door: 'rest', address })
					// Counted by the key's hash, so both kinds of route share one bucket per key.
					const bucket = `key:${key.hash}`
					if (spec === 'vendor-key') {
						await enforceRateLimit(deps, bucket, set.headers, key.check)
						return resolved(null, null, key)
					}
					const actor = await key.check()
					await enforceRateLimit(deps, bucket, set.headers)
					return resolved(actor, null)
				}
				const session = await pageSession(request, cookie)
				checkForm(request, body, session.csrf)
				if (spec !== 'signed-in' && !deps.permissions.can(session.actor, spec.permission))
					throw new AppError('FORBIDDEN', 'Your role does not allow this page.')
				return resolved(session.actor, session)
			}
			// Tagged so the route-table test can see what each route declared.
			return { resolve: Object.assign(resolve, { auth: spec }) }
		},
	})
}

export type AuthPlugin = ReturnType<typeof createAuthPlugin>

/** What a route declared, read back from Elysia's route table (undefined when nothing). */
export function declaredAuth(hooks: unknown): AuthSpec | undefined {
	const before = (hooks as { beforeHandle?: unknown })?.beforeHandle
	const list = Array.isArray(before) ? before : before ? [before] : []
	for (const h of list) {
		const spec = ((h as { fn?: unknown }).fn ?? h) as { auth?: AuthSpec }
		if (spec?.auth) return spec.auth
	}
	return undefined
}
