/**
 * A client known by its metadata document (client-documents.ts), checked again at the token
 * endpoint: before, only a new authorization fetched the document, so an app whose document was
 * taken down or broken kept refreshing for as long as its people's refresh tokens lasted.
 *
 * Rules:
 * - The kept copy is used while it is fresh (the document's `Cache-Control`: at most a day, five
 *   minutes without one); then the document is fetched again, through the same outbound connection
 *   as at authorization, but at most once a minute per app (`MIN_RECHECK_MS`: a `no-store` document
 *   would otherwise be fetched at every refresh of every person), however many of its people refresh
 *   at that moment: one request takes the check (`claimRecheck`), the others use the kept copy. These
 *   checks have a per-host budget of their own: strangers naming addresses on the app's host at
 *   /oauth/authorize spend the authorization one, and must not make the app's refreshes fail.
 * - Gone (404, 410), no longer a valid document, or no longer listing the redirect address the
 *   grant was made for: the verdict ends the connection (the token endpoint answers `invalid_client`
 *   and revokes the grant). The app's other connections end at their own next refresh; the refusal
 *   is kept, so the refreshes of the next minute are refused without asking the host again.
 * - Unreachable (no answer within 5 s, a 5xx, any other status, the host's budget spent): one bad
 *   minute at the app's host must not sign everyone out, so the kept copy still counts until a day
 *   past its freshness (`STALE_IF_ERROR_MS`, as `stale-if-error` in RFC 5861). Past that the token
 *   endpoint refuses (`invalid_client`) but ends nothing: once the document answers again, the same
 *   refresh token works.
 */
import { and, eq, sql } from 'drizzle-orm'
import type { AppDeps } from '../../../core/deps.ts'
import { oauthClients } from '../table.ts'
import { ClientDocumentError, type DocumentFacts, fetchDocument, keepDocument, spendFetchBudget } from './client-documents.ts'

/** At the token endpoint an app's document is fetched at most this often, whatever its Cache-Control says. */
export const MIN_RECHECK_MS = 60_000
/** How long past its freshness a kept copy still counts while the document cannot be fetched. */
export const STALE_IF_ERROR_MS = 24 * 3_600_000

/** What the token endpoint does with the app: go on, refuse this request, or refuse and end the connection. */
export type DocumentVerdict = { readonly usable: true } | { readonly usable: false; readonly ends: boolean; readonly reason: string }

/** What is known of the document now. */
type Reading =
	| { readonly state: 'good'; readonly redirectUris: readonly string[] }
	| { readonly state: 'refused'; readonly reason: string }
	| { readonly state: 'failing'; readonly reason: string; readonly since: string }

/** The app named `clientId` at the token endpoint, for a grant (or code) made for `redirectUri` (null: not known). */
export async function checkDocumentClient(deps: AppDeps, clientId: string, redirectUri: string | null): Promise<DocumentVerdict> {
	const [kept] = await deps.db
		.select({ redirectUris: oauthClients.redirectUris, metadata: oauthClients.metadata })
		.from(oauthClients)
		.where(eq(oauthClients.id, clientId))
	const facts = kept?.metadata.document as DocumentFacts | undefined
	if (!kept || !facts) return { usable: false, ends: false, reason: `Benchline holds no copy of the client metadata document at ${clientId}` }
	const reading = isDue(deps, facts) && (await claimRecheck(deps, clientId)) ? await fetchAgain(deps, clientId, facts) : keptReading(kept.redirectUris, facts)
	const document = `The client metadata document at ${clientId}`
	if (reading.state === 'refused') return { usable: false, ends: true, reason: `${document} ${reading.reason}` }
	if (reading.state === 'failing' && deps.now().getTime() > Date.parse(facts.freshUntil) + STALE_IF_ERROR_MS)
		return { usable: false, ends: false, reason: `${document} could not be read since ${reading.since} (${reading.reason})` }
	// Fetched and good, or failing within the grace: the copy Benchline holds is the client.
	const redirectUris = reading.state === 'good' ? reading.redirectUris : kept.redirectUris
	if (redirectUri !== null && !redirectUris.includes(redirectUri))
		return { usable: false, ends: true, reason: `${document} no longer lists ${redirectUri} in redirect_uris` }
	return { usable: true }
}

/** Whether the kept copy is stale and the last attempt at the token endpoint is a minute old. */
function isDue(deps: AppDeps, facts: DocumentFacts): boolean {
	const now = deps.now().getTime()
	return now >= Date.parse(facts.freshUntil) && now >= (facts.checkedAt ? Date.parse(facts.checkedAt) + MIN_RECHECK_MS : 0)
}

/**
 * Takes this minute's check of the app's document: true for the one request that is to fetch it.
 * `checkedAt` is set before the fetch, in one conditional statement, so the refreshes of the app's
 * other people arriving meanwhile (a client fleet refreshes at once) use the kept copy instead of
 * each fetching the document too.
 */
async function claimRecheck(deps: AppDeps, clientId: string): Promise<boolean> {
	const now = deps.now()
	// ISO 8601 times in UTC (toISOString) compare as text in time order.
	const due = new Date(now.getTime() - MIN_RECHECK_MS).toISOString()
	const claimed = await deps.db
		.update(oauthClients)
		.set({ metadata: sql`jsonb_set(${oauthClients.metadata}, '{document,checkedAt}', to_jsonb(${now.toISOString()}::text))` })
		.where(and(eq(oauthClients.id, clientId), sql`coalesce(${oauthClients.metadata} #>> '{document,checkedAt}', '') <= ${due}`))
		.returning({ id: oauthClients.id })
	return claimed.length > 0
}

function keptReading(redirectUris: readonly string[], facts: DocumentFacts): Reading {
	if (facts.refused) return { state: 'refused', reason: facts.refused.reason }
	if (facts.failingSince) return { state: 'failing', reason: 'it did not answer', since: facts.failingSince }
	return { state: 'good', redirectUris }
}

/** The document fetched again: kept when good, else what went wrong is recorded with the time of the attempt. */
async function fetchAgain(deps: AppDeps, clientId: string, facts: DocumentFacts): Promise<Reading> {
	try {
		await spendFetchBudget(deps, facts.host, 'recheck')
		const doc = await fetchDocument(deps, clientId)
		await keepDocument(deps, clientId, doc)
		return { state: 'good', redirectUris: doc.redirectUris }
	} catch (error) {
		if (!(error instanceof ClientDocumentError)) throw error
		const now = deps.now().toISOString()
		const { failingSince: _, ...rest } = facts
		// A document refused for good stays refused until it is found good again, failures meanwhile included.
		const refused =
			error.kind === 'unreachable'
				? facts.refused
				: { kind: error.kind, reason: error.kind === 'gone' ? `is gone (${error.message})` : `is not valid: ${error.message}` }
		const next: DocumentFacts = refused ? { ...rest, checkedAt: now, refused } : { ...rest, checkedAt: now, failingSince: facts.failingSince ?? now }
		await deps.db
			.update(oauthClients)
			.set({ metadata: { document: next } })
			.where(eq(oauthClients.id, clientId))
		deps.log.warn('client metadata document unusable at the token endpoint', { clientId, kind: error.kind, reason: error.message })
		return refused ? { state: 'refused', reason: refused.reason } : { state: 'failing', reason: error.message, since: next.failingSince! }
	}
}
