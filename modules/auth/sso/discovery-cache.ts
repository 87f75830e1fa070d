/**
 * The identity providers' discovery documents, kept in this process's memory for 5 minutes per
 * issuer. Every SSO start and callback needs the document, and `/sign-in/sso` is open to anyone:
 * each start used to fetch it over the network. openid-client keeps no copy of its own, so its
 * `discovery` still runs every time (its checks of the document and of the issuer, its handling
 * of providers such as Microsoft Entra ID stay as they are); only the fetch of the document is
 * answered from here. Starts at the same moment share one fetch.
 *
 * A failure is never kept as a success: an answer the library refuses (not 200, not a document,
 * another issuer) or a provider that does not answer is forgotten at once (`forget`), and the
 * next start asks again. At most 300 issuers are kept, the one fetched longest ago dropped first.
 */
import type * as client from 'openid-client'

export const DISCOVERY_KEPT_MS = 5 * 60_000
const MAX_ISSUERS = 300

interface Answer {
	status: number
	statusText: string
	headers: [string, string][]
	body: string
}
interface Kept {
	answer: Promise<Answer>
	until: number
}
const kept = new Map<string, Kept>()

export interface DiscoveryFetch {
	/** The fetch openid-client's `discovery` makes: answered from the kept document, else fetched (and kept). */
	fetch: client.CustomFetch
	/** The discovery failed: the document this fetch used is not kept (unless another fetch already replaced it). */
	forget(): void
}

/**
 * The document fetch of one discovery of `key` (an issuer). `fresh`: an owner checking their
 * settings reads the provider as it is now, and drops what was kept, so that the next sign-in
 * reads the document anew too.
 */
export function discoveryFetch(key: string, o: { now: number; fresh: boolean; fetcher: client.CustomFetch }): DiscoveryFetch {
	let used: Kept | undefined
	const fetch: client.CustomFetch = async (url, init) => {
		used = o.fresh ? undefined : keptFor(key, o.now)
		if (!used) {
			used = { answer: read(o.fetcher, url, init), until: o.now + DISCOVERY_KEPT_MS }
			if (o.fresh) kept.delete(key)
			else keep(key, used)
		}
		const answer = await used.answer
		return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers: answer.headers })
	}
	const forget = () => {
		if (used && kept.get(key) === used) kept.delete(key)
	}
	return { fetch, forget }
}

/** The kept document of `key` while it is fresh; an expired one is dropped. */
function keptFor(key: string, now: number): Kept | undefined {
	const found = kept.get(key)
	if (found && found.until > now) return found
	kept.delete(key)
	return undefined
}

function keep(key: string, entry: Kept): void {
	// Map order is insertion order: re-inserted, the newest fetch is last and the oldest goes first.
	kept.delete(key)
	kept.set(key, entry)
	while (kept.size > MAX_ISSUERS) kept.delete(kept.keys().next().value!)
}

async function read(fetcher: client.CustomFetch, url: string, init: Parameters<client.CustomFetch>[1]): Promise<Answer> {
	const res = await fetcher(url, init)
	return { status: res.status, statusText: res.statusText, headers: [...res.headers], body: await res.text() }
}
