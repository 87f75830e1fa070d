/**
 * Dynamic client registration (RFC 7591), public clients only.
 *
 * Rules: every client is registered with `token_endpoint_auth_method: none` (a request for a
 * secret-based method is registered as `none`, and the answer says so); redirect addresses must be
 * https, or http on localhost / 127.0.0.1 with any port (RFC 8252), without fragment or user info;
 * invalid addresses are dropped when valid ones remain and refused when none do; only the
 * authorization_code and refresh_token grants, authorization_code always (the only way to a first
 * token), both when `grant_types` is left out (the answer says so, RFC 7591 §3.2.1); an app whose
 * grants lack refresh_token gets no refresh token and may not refresh (`unauthorized_client`,
 * RFC 6749 §5.2; tokens.ts, refresh.ts); the client name is self-declared, so it is cleaned
 * (client-text.ts) and capped; text that cannot be stored as sent (a NUL character, a lone
 * surrogate) anywhere in the registration is `invalid_client_metadata`; metadata URLs are stored,
 * never fetched. Registrations that never get a grant are
 * removed after a day (housekeeping.ts); the others are kept.
 */
import { eq } from 'drizzle-orm'
import { newId } from '../../../core/credentials.ts'
import type { AppDeps } from '../../../core/deps.ts'
import { outboundUrlProblem } from '../../../core/http/outbound.ts'
import { oauthClients } from '../table.ts'
import { cleanAppName, quoted, storable, storableJson } from './client-text.ts'
import { OAuthError } from './errors.ts'

export interface Client {
	id: string
	name: string
	redirectUris: string[]
	/** For a client known by its metadata document (client-documents.ts): the host the document lives on. */
	documentHost?: string
	/** The grants it registered (or its document lists): `authorization_code`, and `refresh_token` unless it left it out. */
	grantTypes: string[]
}

export const SUPPORTED_GRANTS = ['authorization_code', 'refresh_token'] as const

/** Whether the client may hold and use refresh tokens (its grants list refresh_token). */
export const usesRefreshTokens = (client: Pick<Client, 'grantTypes'>) => client.grantTypes.includes('refresh_token')

/**
 * The grants a registration or a metadata document asks for (RFC 7591 §2), or why they cannot be
 * had: left out, both; else a list naming authorization_code. `ignoreOthers` (a document, written
 * for many servers: a device-code grant Benchline does not have is no reason to refuse the app)
 * drops grants Benchline does not know instead of refusing them.
 */
export function grantTypesOf(value: unknown, o: { ignoreOthers?: boolean } = {}): string[] | string {
	if (value === undefined) return [...SUPPORTED_GRANTS]
	if (!Array.isArray(value) || value.some((g) => typeof g !== 'string')) return 'grant_types must be a list of grant type names'
	const known = SUPPORTED_GRANTS.filter((g) => value.includes(g))
	if (!o.ignoreOthers && known.length !== new Set(value).size) return 'grant_types may only contain authorization_code and refresh_token'
	if (!known.includes('authorization_code')) return 'grant_types must include authorization_code (the only way to a first token here)'
	return known
}

const MAX_URIS = 10

/** A host name or IPv4 address as the URL parser leaves it (no wildcards, no empty labels). */
const HOSTNAME = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/

/** True for an address a client may be sent back to. */
export function validRedirectUri(raw: string): boolean {
	if (typeof raw !== 'string' || raw.length > 2000) return false
	// The URL parser silently repairs some input (`https:///x`, backslashes, tabs and newlines):
	// the registered text must be what is used, so anything it would repair is refused.
	if (!/^https?:\/\/[^/\\]/i.test(raw) || /[\s\\#\u0000-\u001f\u007f]/.test(raw) || !URL.canParse(raw)) return false
	// Shown on the consent page as typed: no format characters (a right-to-left override makes
	// `…/\u202egpj.exe` read `…/exe.jpg`), as for any typed address; no lone surrogate (not storable).
	if (outboundUrlProblem(raw, { allowPrivate: true }) || !storable(raw)) return false
	const u = new URL(raw)
	if (u.hash || u.username || u.password || !HOSTNAME.test(u.hostname)) return false
	if (u.protocol === 'https:') return true
	return u.protocol === 'http:' && (u.hostname === 'localhost' || u.hostname === '127.0.0.1')
}

const LOOPBACK = /^http:\/\/(localhost|127\.0\.0\.1)(?::\d{1,5})?(?=[/?]|$)/

/** A loopback address without its port, compared as text (every other character must match). */
function loopbackWithoutPort(raw: string): string | null {
	const m = LOOPBACK.exec(raw)
	if (!m) return null
	const rest = raw.slice(m[0].length)
	return `http://${m[1]}${rest.startsWith('/') ? rest : `/${rest}`}`
}

/**
 * Exact string match (RFC 3986 §6.2.1 simple comparison), except that a loopback address may
 * use any port (RFC 8252 §7.3): desktop apps pick a free port at each sign-in.
 */
export function redirectMatches(registered: string, requested: string): boolean {
	if (registered === requested) return true
	if (!validRedirectUri(requested)) return false
	const a = loopbackWithoutPort(registered)
	return a !== null && a === loopbackWithoutPort(requested)
}

export interface Registration {
	client_id: string
	client_id_issued_at: number
	client_name: string
	redirect_uris: string[]
	grant_types: string[]
	response_types: string[]
	token_endpoint_auth_method: 'none'
	/** What the server changed or dropped (registered as `none`, addresses ignored). */
	notices?: string[]
}

export async function registerClient(deps: AppDeps, body: unknown): Promise<Registration> {
	if (typeof body !== 'object' || body === null || Array.isArray(body))
		throw new OAuthError('invalid_client_metadata', 'The registration body must be a JSON object')
	// Refused whole rather than cleaned: a name or address silently changed is not what the app registered.
	if (!storableJson(body))
		throw new OAuthError('invalid_client_metadata', 'The registration contains text that cannot be stored (a NUL character or a lone surrogate)')
	const b = body as Record<string, unknown>
	const notices: string[] = []
	const uris = b.redirect_uris
	if (!Array.isArray(uris) || uris.length === 0) throw new OAuthError('invalid_redirect_uri', 'redirect_uris must be a non-empty array of addresses')
	if (uris.length > MAX_URIS) throw new OAuthError('invalid_redirect_uri', `at most ${MAX_URIS} redirect_uris`)
	if (!uris.every((u): u is string => typeof u === 'string'))
		throw new OAuthError('invalid_redirect_uri', 'redirect_uris must be a list of addresses (strings)')
	const valid = [...new Set(uris.filter(validRedirectUri))]
	const dropped = uris.filter((u) => !validRedirectUri(u))
	if (!valid.length)
		throw new OAuthError('invalid_redirect_uri', 'No redirect address is allowed: use https, or http on localhost or 127.0.0.1, without a fragment')
	if (dropped.length) notices.push(`Ignored redirect addresses that are not allowed: ${dropped.map((u) => quoted(u, 200)).join(', ')}`)

	const method = b.token_endpoint_auth_method
	if (method !== undefined && typeof method !== 'string')
		throw new OAuthError('invalid_client_metadata', 'token_endpoint_auth_method must be a string (and only none is supported)')
	if (method !== undefined && method !== 'none')
		notices.push(`Registered as a public client: token_endpoint_auth_method is "none", not ${quoted(method)}; no client secret is issued`)
	const grantTypes = grantTypesOf(b.grant_types)
	if (typeof grantTypes === 'string') throw new OAuthError('invalid_client_metadata', grantTypes)
	if (b.response_types !== undefined && (!Array.isArray(b.response_types) || b.response_types.some((r) => r !== 'code')))
		throw new OAuthError('invalid_client_metadata', 'response_types may only contain code')

	const name = typeof b.client_name === 'string' ? cleanAppName(b.client_name) : ''
	if ([...name].length > 100) throw new OAuthError('invalid_client_metadata', 'client_name must be at most 100 characters')

	const metadata: Record<string, unknown> = {}
	for (const key of ['client_uri', 'logo_uri', 'software_id', 'software_version', 'application_type', 'scope', 'contacts', 'tos_uri', 'policy_uri'])
		if (b[key] !== undefined && JSON.stringify(b[key]).length <= 2000) metadata[key] = b[key]

	const id = newId('cli')
	const createdAt = deps.now()
	await deps.db.insert(oauthClients).values({ id, name: name || 'Unnamed app', redirectUris: valid, grantTypes, metadata, createdAt })
	return {
		client_id: id,
		client_id_issued_at: Math.floor(createdAt.getTime() / 1000),
		client_name: name || 'Unnamed app',
		redirect_uris: valid,
		grant_types: grantTypes,
		response_types: ['code'],
		token_endpoint_auth_method: 'none',
		...(notices.length ? { notices } : {}),
	}
}

export async function findClient(deps: AppDeps, clientId: string): Promise<Client | null> {
	// Registered ids are short; a metadata document's address may be long (client-documents.ts).
	if (typeof clientId !== 'string' || clientId.length > 2000 || !storable(clientId)) return null
	const [row] = await deps.db
		.select({ id: oauthClients.id, name: oauthClients.name, redirectUris: oauthClients.redirectUris, grantTypes: oauthClients.grantTypes })
		.from(oauthClients)
		.where(eq(oauthClients.id, clientId))
	return row ?? null
}
