/**
 * The authorization endpoint's rules (OAuth 2.1 + RFC 7636, 8707, 9207).
 *
 * Rules: an unknown client or a redirect address that does not match a registered one (exactly;
 * loopback addresses may change port) is an error page, never a redirect; everything else that
 * does not need the person (PKCE, response type, resource, scope, repeated parameters) is checked
 * before the person is asked to sign in: a signed-in person is sent back to the client with
 * `error=…&state=…&iss=…`, an anonymous visitor sees our error page (nothing is redirected before
 * sign-in: no open redirector); PKCE with S256 is required (`plain` and a missing
 * challenge refused); `resource` defaults to our MCP address and any other value is
 * `invalid_target`; a scope other than the ones the metadata lists (`mcp`, `mcp:read`) is
 * `invalid_scope`, as at refresh; repeated parameters are refused; a parameter with a broken %-escape is refused
 * (client_id or redirect_uri: our page; any other: `invalid_request`, and a `state` that cannot be read is not sent back); a parameter holding text that
 * cannot be stored (a NUL character) is an error page, as the client is not yet trusted; a parameter sent without a value counts as
 * left out (RFC 6749 §3.1); a client with exactly one registered redirect address may leave
 * `redirect_uri` out, and that address is used; codes are single use, last 60 seconds and are bound
 * to client, redirect (and whether it was named), challenge, resource and person.
 */
import { newCredential, hashSecret } from '../../../core/credentials.ts'
import type { AppDeps } from '../../../core/deps.ts'
import type { Actor } from '../../../core/actor.ts'
import type { FieldError } from '../../../core/errors.ts'
import { oauthCodes } from '../table.ts'
import { ClientDocumentError, documentClient, isDocumentClientId } from './client-documents.ts'
import { findClient, redirectMatches, type Client } from './clients.ts'
import { storable } from './client-text.ts'
import { cleanDescription } from './errors.ts'

export const CODE_TTL_MS = 60_000
export const SCOPES = ['mcp', 'mcp:read'] as const

/** The values of a `scope` parameter (RFC 6749 §3.3: space-delimited); none when it is left out. */
export const scopeValues = (scope: string | null) => (scope ?? '').split(' ').filter(Boolean)

/**
 * The values that are not scopes this server issues (the ones its metadata lists). They are refused
 * (`invalid_scope`), at authorization as at refresh: one dropped silently would turn a mistyped
 * `mcp:readonly` into full access.
 */
export const unknownScopes = (values: readonly string[]) => values.filter((s) => !(SCOPES as readonly string[]).includes(s))

/** Whether a scope (a grant's or a token's) lets the app write: `mcp` does, `mcp:read` alone does not. */
export const writesAllowed = (scope: string) => scope.split(' ').includes('mcp')

export const mcpResource = (deps: Pick<AppDeps, 'config'>) => `${deps.config.baseUrl}/api/mcp`

/** A problem shown on our own page (the client or its redirect cannot be trusted). */
export class AuthorizePageError extends Error {}

/** A problem reported back to the client's redirect address. */
export class AuthorizeRedirectError extends Error {
	readonly description: string
	constructor(
		readonly error: string,
		description: string,
	) {
		super(description)
		this.description = cleanDescription(description)
	}
}

export interface AuthorizationRequest {
	client: Client
	redirectUri: string
	/** Whether the request named `redirect_uri` (the token request must then repeat it). */
	redirectUriSent: boolean
	state: string | null
	codeChallenge: string
	resource: string
	/** Scope the app asked for (only scopes we issue get this far); `mcp:read` alone means read-only. */
	scope: string
	readOnlyRequested: boolean
}

const CHALLENGE = /^[A-Za-z0-9\-._~]{43,128}$/

/**
 * The authorization request's parameters as the rules read them: RFC 6749 §3.1, "parameters sent
 * without a value MUST be treated as if they were omitted" (some clients send `redirect_uri=`).
 * Used on the way in and again when the consent form comes back.
 */
export function authorizationParams(raw: URLSearchParams): URLSearchParams {
	return new URLSearchParams([...raw].filter(([, value]) => value !== ''))
}

export interface Target {
	client: Client
	redirectUri: string
	redirectUriSent: boolean
}

/** Client and redirect address first: until both are trusted, nothing may be redirected. */
export async function trustedTarget(deps: AppDeps, params: URLSearchParams, unreadable: readonly FieldError[] = []): Promise<Target> {
	// Before any look-up: the database cannot hold such text, and nothing proves the request is the app's.
	if (![...params].every(([key, value]) => storable(key) && storable(value)))
		throw new AuthorizePageError(
			'The app’s request contains characters that cannot be used (such as a NUL character). The app needs fixing: signing in would not help.',
		)
	// A broken %-escape in either (`unreadableFields`): nothing says which app asks, nor where it may be sent.
	for (const { field, message } of unreadable)
		if (field === 'client_id' || field === 'redirect_uri')
			throw new AuthorizePageError(`The app’s request cannot be read: ${message}. The app needs fixing: signing in would not help.`)
	for (const key of ['client_id', 'redirect_uri'])
		if (params.getAll(key).length > 1) throw new AuthorizePageError(`The parameter ${key} is given more than once.`)
	const clientId = params.get('client_id') ?? ''
	if (isDocumentClientId(clientId)) return documentTarget(deps, clientId, params.get('redirect_uri'))
	const client = await findClient(deps, clientId)
	if (!client)
		throw new AuthorizePageError(
			'This app is not registered with Benchline (unknown client_id). Registrations that never completed a sign-in are removed after a day: remove Benchline from the app, add it again and sign in.',
		)
	const requested = params.get('redirect_uri')
	let redirectUri: string
	if (requested === null) {
		if (client.redirectUris.length !== 1) throw new AuthorizePageError('The app did not say where to send you back (redirect_uri is missing).')
		redirectUri = client.redirectUris[0]!
	} else {
		if (!client.redirectUris.some((r) => redirectMatches(r, requested)))
			throw new AuthorizePageError('The app asked to send you to an address it did not register (redirect_uri does not match).')
		redirectUri = requested
	}
	return { client, redirectUri, redirectUriSent: requested !== null }
}

/**
 * A client known by its metadata document: the document must be reachable and valid, and the
 * redirect address one it lists, exactly (no loopback port leeway: the document names its own).
 */
async function documentTarget(deps: AppDeps, clientId: string, requested: string | null): Promise<Target> {
	let client: Client
	try {
		client = await documentClient(deps, clientId)
	} catch (error) {
		if (!(error instanceof ClientDocumentError)) throw error
		throw new AuthorizePageError(
			error.kind !== 'invalid'
				? `Benchline could not read this app’s client metadata document at ${clientId}: ${error.message}. Try again in a moment; if it keeps failing, the app’s document is down or its address is wrong.`
				: `This app’s client metadata document at ${clientId} is not valid: ${error.message}. The app’s makers need to fix it.`,
		)
	}
	if (requested === null && client.redirectUris.length === 1) return { client, redirectUri: client.redirectUris[0]!, redirectUriSent: false }
	if (requested === null) throw new AuthorizePageError('The app did not say where to send you back (redirect_uri is missing).')
	if (!client.redirectUris.includes(requested))
		throw new AuthorizePageError(`The app asked to send you to ${requested}, which its client metadata document (${clientId}) does not list in redirect_uris.`)
	return { client, redirectUri: requested, redirectUriSent: true }
}

/** The rest of the request, once client and redirect are trusted (it does not need the person). */
export function checkRequest(deps: AppDeps, target: Target, params: URLSearchParams, unreadable: readonly FieldError[] = []): AuthorizationRequest {
	// Any other parameter with a broken %-escape (RFC 6749 §4.1.2.1: a malformed parameter is `invalid_request`), never read as sent.
	if (unreadable[0]) throw new AuthorizeRedirectError('invalid_request', unreadable[0].message)
	for (const key of new Set(params.keys()))
		if (params.getAll(key).length > 1) throw new AuthorizeRedirectError('invalid_request', `The parameter ${key} is given more than once`)
	const responseType = params.get('response_type')
	if (responseType === null) throw new AuthorizeRedirectError('invalid_request', 'response_type is required')
	if (responseType !== 'code') throw new AuthorizeRedirectError('unsupported_response_type', 'Only response_type=code is supported')
	const challenge = params.get('code_challenge')
	if (!challenge) throw new AuthorizeRedirectError('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256')
	if (params.get('code_challenge_method') !== 'S256')
		throw new AuthorizeRedirectError('invalid_request', 'code_challenge_method must be S256 (plain is not accepted)')
	if (!CHALLENGE.test(challenge)) throw new AuthorizeRedirectError('invalid_request', 'code_challenge must be 43-128 characters of base64url')
	const resource = normaliseResource(deps, params.get('resource'))
	const asked = scopeValues(params.get('scope'))
	const unknown = unknownScopes(asked)
	if (unknown.length) throw new AuthorizeRedirectError('invalid_scope', `Unknown scope ${unknown.join(' ')}: this server issues ${SCOPES.join(' and ')}`)
	const readOnlyRequested = asked.length > 0 && !asked.includes('mcp')
	return { ...target, state: params.get('state'), codeChallenge: challenge, resource, scope: readOnlyRequested ? 'mcp:read' : 'mcp', readOnlyRequested }
}

/**
 * RFC 8707: the only resource we serve is the MCP endpoint. Clients differ in how they spell it, so
 * a trailing slash and upper-case scheme or host are tolerated (MCP: servers SHOULD accept them);
 * a fragment, a query, user info or any other address is `invalid_target`.
 */
export function normaliseResource(deps: AppDeps, requested: string | null): string {
	const ours = mcpResource(deps)
	if (requested === null || requested === '') return ours
	if (requested === ours || requested === `${ours}/`) return ours
	if (URL.canParse(requested) && !/[#?@\\\s]/.test(requested)) {
		const u = new URL(requested)
		if (`${u.origin}${u.pathname.replace(/\/$/, '')}` === ours) return ours
	}
	throw new AuthorizeRedirectError('invalid_target', `The only resource this server issues tokens for is ${ours}`)
}

/** `redirect_uri?code=…&state=…&iss=…` (or an error instead of the code). */
export function redirectWith(deps: AppDeps, redirectUri: string, values: Record<string, string | null>): string {
	const url = new URL(redirectUri)
	for (const [k, v] of Object.entries(values)) if (v !== null) url.searchParams.set(k, v)
	url.searchParams.set('iss', deps.config.baseUrl)
	return url.toString()
}

/** The person allowed the app: a fresh single-use code bound to everything it may be exchanged with. */
export async function issueCode(deps: AppDeps, actor: Actor, request: AuthorizationRequest, readOnly: boolean): Promise<string> {
	const code = newCredential('code')
	await deps.db.insert(oauthCodes).values({
		id: hashSecret(code),
		clientId: request.client.id,
		userId: actor.userId!,
		workspaceId: actor.workspaceId,
		redirectUri: request.redirectUri,
		redirectUriSent: request.redirectUriSent,
		codeChallenge: request.codeChallenge,
		scope: readOnly ? 'mcp:read' : 'mcp',
		readOnly,
		resource: request.resource,
		expiresAt: new Date(deps.now().getTime() + CODE_TTL_MS),
	})
	return code
}
