/**
 * Client ID Metadata Documents (the MCP authorization specification's preferred way for a client to
 * say who it is): a `client_id` that is an `https://` address with a path names a JSON document the
 * client publishes. Benchline fetches it through the one outbound connection (`core/http/outbound.ts`:
 * public addresses only, the connection pinned to a checked address, no redirects, 5 KiB and 5 s at
 * most; `OAUTH_CLIENT_METADATA_ALLOW_PRIVATE` allows `http://` and private addresses for development
 * and tests), checks it (`client_id` equal to its address, `redirect_uris`, `client_name`, optional
 * `logo_uri` and `client_uri`, a public client, `grant_types` as for a registration: without
 * refresh_token no refresh token; every field kept as text the database can store and a page can
 * show: anything else makes the document not valid, never a server error) and keeps it as the client's row, so grants, tokens,
 * connected apps and Disconnect work as for registered clients. The copy is used while the document's
 * `Cache-Control` allows (at most a day; without one, five minutes), then fetched again; at the token
 * endpoint too (client-document-check.ts), so a document taken down or broken ends its connections.
 *
 * Each way a document cannot be used has its own message: unreachable, not valid, `redirect_uri` not
 * listed. The document is the client's own word: its name is shown with the host it lives on.
 */
import { and, eq } from 'drizzle-orm'
import type { AppDeps } from '../../../core/deps.ts'
import { isUnstorableText } from '../../../core/errors.ts'
import { OutboundError, outboundFetch, outboundText, outboundUrlProblem, type OutboundPolicy } from '../../../core/http/outbound.ts'
import { oauthClients, oauthGrants } from '../table.ts'
import { cleanAppName, quoted, storable } from './client-text.ts'
import { grantTypesOf, validRedirectUri, type Client } from './clients.ts'

export const MAX_DOCUMENT_BYTES = 5 * 1024
const FETCH_TIMEOUT_MS = 5_000
const DEFAULT_FRESH_SECONDS = 300
const MAX_FRESH_SECONDS = 86_400
export const MAX_CLIENT_ID_LENGTH = 2000
const MAX_URIS = 10
const FETCHES_PER_HOST_PER_MINUTE = 30

/** What Benchline keeps of a document in the client row's metadata. */
export interface DocumentFacts {
	readonly url: string
	readonly host: string
	/** The last time the document was fetched and found good, and how long that copy is fresh. */
	readonly fetchedAt: string
	readonly freshUntil: string
	readonly logoUri?: string
	readonly clientUri?: string
	/** The last attempt to fetch it, good or not: the token endpoint asks at most once a minute (client-document-check.ts). */
	readonly checkedAt?: string
	/** Why the document was last found unusable for good (gone or invalid), until it is found good again. */
	readonly refused?: { readonly kind: 'gone' | 'invalid'; readonly reason: string }
	/** Since when it could not be fetched (a timeout, a 5xx), until it is fetched again. */
	readonly failingSince?: string
}

/**
 * A document that cannot be used: `message` says why, for the person. `gone`: the address answers
 * 404 or 410 (withdrawn); `invalid`: it answers something that is not a usable document;
 * `unreachable`: anything that may pass (no answer in time, a 5xx, a refused address).
 */
export class ClientDocumentError extends Error {
	constructor(
		readonly kind: 'unreachable' | 'invalid' | 'gone',
		message: string,
	) {
		super(message)
	}
}

/** Whether a `client_id` names a metadata document (an http(s) address) rather than a registration. */
export const isDocumentClientId = (clientId: string) => /^https?:\/\//i.test(clientId)

function policy(deps: Pick<AppDeps, 'config'>): OutboundPolicy {
	const allowPrivate = deps.config.oauthClientMetadataAllowPrivate
	return { allowPrivate, allowHttp: allowPrivate, timeoutMs: FETCH_TIMEOUT_MS, maxBytes: MAX_DOCUMENT_BYTES, maxRedirects: 0, userAgent: 'Benchline-OAuth/1.0' }
}

/** Why `clientId` cannot be a document address, or null. */
export function documentAddressProblem(deps: Pick<AppDeps, 'config'>, clientId: string): string | null {
	if (clientId.length > MAX_CLIENT_ID_LENGTH) return `it is longer than ${MAX_CLIENT_ID_LENGTH} characters`
	if (!URL.canParse(clientId) || /[\s\\#]/.test(clientId)) return 'it is not a valid address'
	const url = new URL(clientId)
	if (url.protocol !== 'https:' && !(url.protocol === 'http:' && deps.config.oauthClientMetadataAllowPrivate)) return 'it must be an https:// address'
	if (url.username || url.password) return 'it must not contain a user name or password'
	if (url.pathname === '/' || url.pathname === '') return 'it must have a path (the document’s own address, not a site)'
	// The parser resolves dot segments; the address must already be in that form.
	if (url.href !== clientId) return 'it must be written in its normal form (no dot segments, a lower-case scheme and host)'
	return null
}

/** Seconds the answer may be reused for, from its Cache-Control (at most a day). */
export function freshSeconds(cacheControl: string | null): number {
	if (!cacheControl) return DEFAULT_FRESH_SECONDS
	const directives = cacheControl
		.toLowerCase()
		.split(',')
		.map((d) => d.trim())
	if (directives.some((d) => d === 'no-store' || d === 'no-cache')) return 0
	const maxAge = directives.map((d) => /^max-age=(\d+)$/.exec(d)).find(Boolean)
	return maxAge ? Math.min(Number(maxAge[1]), MAX_FRESH_SECONDS) : DEFAULT_FRESH_SECONDS
}

/** An optional https address of the document (`logo_uri`, `client_uri`), kept in the form the URL parser gives it. */
const optionalUri = (doc: Record<string, unknown>, key: string): string | undefined => {
	const value = doc[key]
	if (value === undefined) return undefined
	if (typeof value !== 'string' || value.length > 2000 || !storable(value) || outboundUrlProblem(value, { allowPrivate: false }))
		throw new ClientDocumentError('invalid', `${key} must be an https:// address (without spaces or invisible characters)`)
	return new URL(value).href
}

/**
 * The document's client, or a ClientDocumentError saying why it cannot be used. The document is
 * anyone's JSON: whatever goes wrong while reading it makes it not valid (never a server error).
 */
export function readDocument(url: string, text: string): DocumentClient {
	try {
		return documentFields(url, text)
	} catch (error) {
		if (error instanceof ClientDocumentError) throw error
		throw new ClientDocumentError('invalid', 'it could not be read as a client metadata document')
	}
}

interface DocumentClient {
	name: string
	redirectUris: string[]
	grantTypes: string[]
	logoUri?: string
	clientUri?: string
}

function documentFields(url: string, text: string): DocumentClient {
	let doc: unknown
	try {
		doc = JSON.parse(text)
	} catch {
		throw new ClientDocumentError('invalid', 'it is not JSON')
	}
	if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new ClientDocumentError('invalid', 'it is not a JSON object')
	const d = doc as Record<string, unknown>
	if (d.client_id !== url) throw new ClientDocumentError('invalid', 'its client_id is not the address it was fetched from')
	const uris = d.redirect_uris
	if (!Array.isArray(uris) || !uris.length) throw new ClientDocumentError('invalid', 'redirect_uris must be a non-empty list of addresses')
	if (uris.length > MAX_URIS) throw new ClientDocumentError('invalid', `redirect_uris may list at most ${MAX_URIS} addresses`)
	if (!uris.every((u): u is string => typeof u === 'string' && validRedirectUri(u)))
		throw new ClientDocumentError(
			'invalid',
			'every redirect_uris entry must be https, or http on localhost or 127.0.0.1, without a fragment or invisible characters',
		)
	if (typeof d.client_name === 'string' && !storable(d.client_name))
		throw new ClientDocumentError('invalid', 'client_name contains text that cannot be stored (a NUL character or a lone surrogate)')
	const name = typeof d.client_name === 'string' ? cleanAppName(d.client_name) : ''
	if (!name || [...name].length > 100) throw new ClientDocumentError('invalid', 'client_name must be 1 to 100 characters')
	const method = d.token_endpoint_auth_method
	if (method !== undefined && method !== 'none')
		throw new ClientDocumentError('invalid', `token_endpoint_auth_method must be "none" (a public client): ${quoted(method, 40)} is not supported`)
	// Left out: both, as for a registration (documents published before this was read keep refreshing).
	const grantTypes = grantTypesOf(d.grant_types, { ignoreOthers: true })
	if (typeof grantTypes === 'string') throw new ClientDocumentError('invalid', grantTypes)
	return { name, redirectUris: [...new Set(uris)], grantTypes, logoUri: optionalUri(d, 'logo_uri'), clientUri: optionalUri(d, 'client_uri') }
}

export type FetchedDocument = DocumentClient & { fresh: number }

/** The document at `url`, fetched through the one outbound connection and checked (or a ClientDocumentError). */
export async function fetchDocument(deps: AppDeps, url: string): Promise<FetchedDocument> {
	let response: Response
	try {
		response = await outboundFetch(url, { headers: { accept: 'application/json' } }, policy(deps))
	} catch (error) {
		const why =
			error instanceof OutboundError
				? error.failure === 'timeout'
					? 'no answer in time'
					: error.failure === 'too_large'
						? `larger than ${MAX_DOCUMENT_BYTES / 1024} KiB`
						: error.message
				: 'the connection failed'
		throw new ClientDocumentError(error instanceof OutboundError && error.failure === 'too_large' ? 'invalid' : 'unreachable', why)
	}
	if (response.status !== 200) {
		await response.body?.cancel()
		throw new ClientDocumentError(
			response.status === 404 || response.status === 410 ? 'gone' : 'unreachable',
			response.status >= 300 && response.status < 400
				? `it answered with a redirect (${response.status}), which is not followed`
				: `it answered HTTP ${response.status}`,
		)
	}
	let text: string
	try {
		text = await outboundText(response)
	} catch (error) {
		throw new ClientDocumentError(
			error instanceof OutboundError && error.failure === 'too_large' ? 'invalid' : 'unreachable',
			error instanceof OutboundError && error.failure === 'too_large' ? `it is larger than ${MAX_DOCUMENT_BYTES / 1024} KiB` : 'it could not be read',
		)
	}
	return { ...readDocument(url, text), fresh: freshSeconds(response.headers.get('cache-control')) }
}

/**
 * The client a document address names: the kept copy while it is fresh, else the document fetched,
 * checked and kept. Throws ClientDocumentError when it cannot be used (a stale copy is not used then:
 * a document taken down, or changed to something invalid, stops the client).
 */
export async function documentClient(deps: AppDeps, clientId: string): Promise<Client & { documentHost: string }> {
	const problem = documentAddressProblem(deps, clientId)
	if (problem) throw new ClientDocumentError('invalid', `the client_id address is not usable: ${problem}`)
	const [kept] = await deps.db.select().from(oauthClients).where(eq(oauthClients.id, clientId))
	const facts = kept?.metadata.document as DocumentFacts | undefined
	const host = new URL(clientId).host
	if (kept && facts && new Date(facts.freshUntil) > deps.now())
		return { id: kept.id, name: kept.name, redirectUris: kept.redirectUris, grantTypes: kept.grantTypes, documentHost: host }
	await spendFetchBudget(deps, host)
	const doc = await fetchDocument(deps, clientId)
	await keepDocument(deps, clientId, doc)
	return { id: clientId, name: doc.name, redirectUris: doc.redirectUris, grantTypes: doc.grantTypes, documentHost: host }
}

/**
 * Anyone can name any address: a host is asked at most this often, whoever asks (an `unreachable`
 * error past it). The token endpoint's checks of apps already connected (`recheck`) count apart:
 * strangers naming addresses on the app's host at /oauth/authorize must not be able to spend the
 * budget those checks need (every refresh would then find the document "unreachable", and a day
 * later be refused); they are asked only by holders of a live refresh token, once a minute per app.
 */
export async function spendFetchBudget(deps: AppDeps, host: string, purpose: 'authorization' | 'recheck' = 'authorization'): Promise<void> {
	const budget = await deps.limiter.hit(`${purpose === 'recheck' ? 'client-document-recheck' : 'client-document'}:${host}`, FETCHES_PER_HOST_PER_MINUTE)
	if (!budget.allowed) throw new ClientDocumentError('unreachable', `its host was asked too often; try again in ${budget.resetSeconds} seconds`)
}

/** Keeps a document just fetched and found good as its client's row (a past refusal or failure is forgotten). */
export async function keepDocument(deps: AppDeps, clientId: string, doc: FetchedDocument): Promise<void> {
	const now = deps.now()
	const document: DocumentFacts = {
		url: clientId,
		host: new URL(clientId).host,
		fetchedAt: now.toISOString(),
		freshUntil: new Date(now.getTime() + doc.fresh * 1000).toISOString(),
		...(doc.logoUri ? { logoUri: doc.logoUri } : {}),
		...(doc.clientUri ? { clientUri: doc.clientUri } : {}),
		checkedAt: now.toISOString(),
	}
	await deps.db
		.insert(oauthClients)
		.values({ id: clientId, name: doc.name, redirectUris: doc.redirectUris, grantTypes: doc.grantTypes, metadata: { document }, createdAt: now })
		.onConflictDoUpdate({
			target: oauthClients.id,
			set: { name: doc.name, redirectUris: doc.redirectUris, grantTypes: doc.grantTypes, metadata: { document } },
		})
		.catch((error) => {
			// readDocument lets only storable text through; should any still be refused, the document is
			// what is wrong (not valid), not the server. Other failures (the database down) stay what they are.
			if (isUnstorableText(error)) throw new ClientDocumentError('invalid', 'it contains text that cannot be stored')
			throw error
		})
}

/** Whether any person of the workspace has allowed this client before (the consent page says when not). */
export async function knownInWorkspace(deps: AppDeps, clientId: string, workspaceId: string): Promise<boolean> {
	const [row] = await deps.db
		.select({ id: oauthGrants.id })
		.from(oauthGrants)
		.where(and(eq(oauthGrants.clientId, clientId), eq(oauthGrants.workspaceId, workspaceId)))
		.limit(1)
	return Boolean(row)
}
