/**
 * Fetching a person's iCalendar feed without turning the server into a proxy for the inside
 * network (SSRF): http(s) only (`webcal:` is read as https); the host name is looked up once per
 * hop and every address it gives must be public unicast (`core/http/public-address.ts`; unless
 * CALENDAR_FEEDS_ALLOW_PRIVATE is on); the connection goes to an address that was checked, never
 * to a second look-up (`core/http/pinned-request.ts`); redirects are followed by hand and each
 * hop checked the same way; at most 2 MB are read and the whole fetch (name look-ups, redirects
 * and the body included) gives up after `CALENDAR_FEED_TIMEOUT` seconds (10 by default): a server
 * that never answers, or trickles its answer, cannot hold the settings page or the refresh sweep.
 *
 * A refused address, a name that does not resolve and a connection that fails all get the same
 * message: telling them apart (or passing on ECONNREFUSED, ECONNRESET, a TLS error) would let the
 * feed form map which inside hosts and ports exist.
 */
import { lookup } from 'node:dns/promises'
import { readLimitedText } from '../../core/http/body.ts'
import { pinnedGet } from '../../core/http/pinned-request.ts'
import { anyAddress, publicAddress } from '../../core/http/public-address.ts'
import type { CalendarSettings } from './settings.ts'

export class FeedFetchError extends Error {}

const MAX_BYTES = 2 * 1024 * 1024
const MAX_REDIRECTS = 3

/** The address as it will be fetched, or an error message for a person. */
export function normalizeFeedUrl(raw: string): { url: string } | { error: string } {
	const trimmed = raw.trim()
	if (!trimmed) return { error: 'Enter the address of your calendar feed' }
	if ([...trimmed].length > 2000) return { error: 'The address is longer than 2,000 characters' }
	let u: URL
	try {
		u = new URL(trimmed.replace(/^webcals?:\/\//i, 'https://'))
	} catch {
		return { error: 'This is not a web address: it should start with https:// or webcal://' }
	}
	if (u.protocol !== 'https:' && u.protocol !== 'http:') return { error: 'The address must start with https://, http:// or webcal://' }
	if (u.username || u.password) return { error: 'Put no user name or password in the address; use the private (secret) address your calendar offers' }
	u.hash = ''
	return { url: u.toString() }
}

/** What the fetch may reach and how names are looked up; tests replace parts of it. */
export interface FeedNetwork {
	/** Every address a host name resolves to. */
	resolve(host: string): Promise<string[]>
	/** The address to connect to if `ip` may be reached, else null. */
	reachable(ip: string): string | null
}

export const feedNetwork = (config: Pick<CalendarSettings, 'calendarFeedsAllowPrivate'>): FeedNetwork => ({
	resolve: async (host) => (await lookup(host, { all: true })).map((a) => a.address),
	reachable: config.calendarFeedsAllowPrivate ? anyAddress : publicAddress,
})

/** The one message for an address that is refused or cannot be reached, whatever the reason. */
export const UNREACHABLE = 'The calendar server could not be reached at this address; check that it is the iCal address your calendar gives you'

/** Rejects when `signal` aborts: for waits that take no signal of their own (name look-ups). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
	if (signal.aborted) return Promise.reject(signal.reason)
	return new Promise<T>((resolve, reject) => {
		const onAbort = () => reject(signal.reason)
		signal.addEventListener('abort', onAbort, { once: true })
		work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
	})
}

/**
 * The addresses `url` may be fetched from: its own address, or every address its name resolves
 * to (one look-up); all of them must be reachable, or none is used.
 */
async function checkedAddresses(network: FeedNetwork, url: URL, signal: AbortSignal, tooSlow: string): Promise<string[]> {
	const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
	let found: string[]
	if (anyAddress(host)) found = [host]
	else {
		try {
			found = await untilAborted(network.resolve(host), signal)
		} catch (error) {
			throw new FeedFetchError(signal.aborted ? tooSlow : UNREACHABLE, { cause: error })
		}
	}
	const reachable = found.map((ip) => network.reachable(ip))
	if (!reachable.length || reachable.some((ip) => ip === null))
		throw new FeedFetchError(UNREACHABLE, { cause: new Error(`refused: ${host} is ${found.join(', ') || 'nothing'}`) })
	return [...new Set(reachable as string[])]
}

const readLimited = (response: Response) => readLimitedText(response, MAX_BYTES, () => new FeedFetchError('The feed is larger than 2 MB'))

/** The feed's text. Throws `FeedFetchError` with a message for the person. */
export async function fetchFeed(
	config: Pick<CalendarSettings, 'calendarFeedsAllowPrivate' | 'calendarFeedTimeout'>,
	address: string,
	network: FeedNetwork = feedNetwork(config),
): Promise<string> {
	let url = new URL(address)
	const signal = AbortSignal.timeout(config.calendarFeedTimeout * 1000)
	const tooSlow = `The calendar server did not answer within ${config.calendarFeedTimeout} seconds`
	for (let hop = 0; ; hop++) {
		const addresses = await checkedAddresses(network, url, signal, tooSlow)
		let response: Response
		try {
			response = await pinnedGet(url, addresses, { signal, headers: { accept: 'text/calendar, text/plain;q=0.5', 'user-agent': 'Benchline calendar sync' } })
		} catch (error) {
			throw new FeedFetchError(signal.aborted ? tooSlow : UNREACHABLE, { cause: error })
		}
		if (response.status >= 300 && response.status < 400 && response.headers.get('location')) {
			await response.body?.cancel().catch(() => {})
			if (hop >= MAX_REDIRECTS) throw new FeedFetchError('The feed address redirects too many times')
			const next = URL.parse(response.headers.get('location')!, url)
			if (next?.protocol !== 'https:' && next?.protocol !== 'http:')
				throw new FeedFetchError('The feed address redirects to something that is not a web address')
			url = next
			continue
		}
		if (response.status !== 200) {
			await response.body?.cancel().catch(() => {})
			throw new FeedFetchError(
				`The calendar server answered ${response.status}${response.status === 404 || response.status === 401 || response.status === 403 ? ': check that the address is the private (secret) iCal address and still valid' : ''}`,
			)
		}
		try {
			return await readLimited(response)
		} catch (error) {
			if (error instanceof FeedFetchError) throw error
			throw new FeedFetchError(signal.aborted ? tooSlow : 'The feed could not be read', { cause: error })
		}
	}
}
