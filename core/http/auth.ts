/**
 * Authentication and permissions for REST routes and pages, as one Elysia macro: every route
 * declares `auth`, and a test checks that no route in the app's route table lacks it.
 *
 *   auth: 'public'                 anyone (careers pages, health, OAuth endpoints)
 *   auth: 'form'                   anyone, but a form post must carry the double-submit CSRF token
 *   auth: 'vendor'                 a vendor API key (`Authorization: Bearer bl_vk_…`), rate limited
 *   auth: 'mcp'                    a personal token or OAuth access token for `/api/mcp`, rate limited;
 *                                  a foreign browser Origin is 403; 401s point at the resource metadata
 *   auth: 'signed-in'              a person with a portal session (pages); posts are CSRF-checked
 *   auth: { permission: 'x:y' }    a signed-in person whose role or grants include the permission
 *
 * Error precedence on the REST door follows design.md: 401, 403, 429, then the body (413, 400).
 */
import { Elysia } from 'elysia'
import type { Actor } from '../actor.ts'
import type { AppDeps } from '../deps.ts'
import { AppError } from '../errors.ts'
import type { CredentialVerifier, PermissionKey } from '../module.ts'
import { parseBearer } from './bearer.ts'
import { applyCors } from './cors.ts'
import { anonymousCsrf, CSRF_COOKIE, verifyCsrf } from './csrf.ts'
import { rateLimitHeaders } from './rate-limit.ts'

export type AuthSpec = 'public' | 'form' | 'vendor' | 'mcp' | 'signed-in' | { permission: PermissionKey }

/** A signed-in portal session, as pages see it. */
export interface PageSession {
	readonly actor: Actor
	/** Token every form of this session must carry. */
	readonly csrf: string
	readonly sessionId: string
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

/** Resolves the actor behind an `Authorization` header among the verifiers of one door. */
export async function resolveBearer(deps: AppDeps, verifiers: readonly CredentialVerifier[], header: string | null, door: 'rest' | 'mcp' = 'rest'): Promise<Actor> {
	const challenge = (error?: string) => (door === 'mcp' ? mcpChallenge(deps.config.baseUrl, error) : bearerChallenge(error))
	const what = door === 'mcp' ? 'an access token or personal token' : 'an API key'
	const parsed = parseBearer(header)
	if ('problem' in parsed) {
		const message = parsed.problem === 'missing' ? `Authentication is required: send Authorization: Bearer <token> with ${what}` : `The Authorization header is malformed: send Authorization: Bearer <token> with ${what}`
		throw new AppError('UNAUTHORIZED', message, { headers: challenge(parsed.problem === 'missing' ? undefined : 'invalid_request') })
	}
	const verifier = verifiers.find((v) => parsed.token.startsWith(v.prefix))
	const actor = verifier ? await verifier.verify(deps, parsed.token) : null
	if (!actor) throw new AppError('UNAUTHORIZED', door === 'mcp' ? 'The token is not valid, has expired or has been revoked' : 'The API key is not valid or has been revoked', { headers: challenge('invalid_token') })
	return actor
}

/** Counts one request for the credential; throws 429 with `Retry-After` over the limit. */
export async function enforceRateLimit(deps: AppDeps, key: string, headers: Record<string, string | number>): Promise<void> {
	const decision = await deps.limiter.hit(key)
	const rl = rateLimitHeaders(decision)
	Object.assign(headers, rl)
	if (!decision.allowed) {
		headers['Retry-After'] = String(decision.resetSeconds)
		throw new AppError('RATE_LIMITED', `Too many requests: wait ${decision.resetSeconds} seconds`, { retryAfter: decision.resetSeconds, headers: { ...rl, 'Retry-After': String(decision.resetSeconds) } })
	}
}

export function createAuthPlugin(deps: AppDeps, resolvers: ActorResolvers) {
	const restVerifiers = resolvers.bearer.filter((v) => v.door === 'rest')
	const mcpVerifiers = resolvers.bearer.filter((v) => v.door === 'mcp')

	const pageSession = async (request: Request, cookie: Record<string, any>) => {
		const session = resolvers.session ? await resolvers.session(deps, request, cookie) : null
		if (!session) throw new AppError('UNAUTHORIZED', 'Sign in to continue')
		return session
	}
	const checkForm = (request: Request, body: unknown, expected: string) => {
		if (request.method === 'GET' || request.method === 'HEAD') return
		verifyCsrf(deps, request, (body as Record<string, unknown> | null)?.csrf, expected)
	}

	return new Elysia({ name: 'core.auth' }).macro({
		auth(spec: AuthSpec) {
			const resolve = async ({ request, set, cookie, body }: { request: Request; set: { headers: Record<string, string | number> }; cookie: Record<string, any>; body: unknown }) => {
				if (spec === 'public') return { actor: null as Actor | null, session: null as PageSession | null }
				if (spec === 'form') {
					if (request.method !== 'GET') verifyCsrf(deps, request, (body as Record<string, unknown> | null)?.csrf, cookie[CSRF_COOKIE]?.value ?? '')
					else anonymousCsrf(deps, cookie)
					return { actor: null as Actor | null, session: null as PageSession | null }
				}
				if (spec === 'mcp') {
					applyCors(deps.config, request, set.headers)
					const actor = await resolveBearer(deps, mcpVerifiers, request.headers.get('authorization'), 'mcp')
					await enforceRateLimit(deps, `cred:${actor.credential.id}`, set.headers)
					return { actor: actor as Actor | null, session: null as PageSession | null }
				}
				if (spec === 'vendor') {
					const actor = await resolveBearer(deps, restVerifiers, request.headers.get('authorization'))
					await enforceRateLimit(deps, `cred:${actor.credential.id}`, set.headers)
					return { actor: actor as Actor | null, session: null as PageSession | null }
				}
				const session = await pageSession(request, cookie)
				checkForm(request, body, session.csrf)
				if (spec !== 'signed-in' && !deps.permissions.can(session.actor, spec.permission))
					throw new AppError('FORBIDDEN', 'Your role does not allow this page.')
				return { actor: session.actor as Actor | null, session: session as PageSession | null }
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
