/**
 * Fetching a person's iCalendar feed without turning the server into a proxy for the inside
 * network (SSRF), through the one outbound connection (`core/http/outbound.ts`): http(s) only
 * (`webcal:` is read as https); every address the host gives must be public unicast (unless
 * CALENDAR_FEEDS_ALLOW_PRIVATE is on); the connection goes to an address that was checked; up to
 * three redirects, each hop checked the same way; at most 2 MB are read and the whole fetch (name
 * look-ups, redirects and the body included) gives up after `CALENDAR_FEED_TIMEOUT` seconds (10 by
 * default): a server that never answers, or trickles its answer, cannot hold the settings page or
 * the refresh sweep.
 *
 * A refused address, a name that does not resolve and a connection that fails all get the same
 * message: telling them apart (or passing on ECONNREFUSED, ECONNRESET, a TLS error) would let the
 * feed form map which inside hosts and ports exist.
 */
import { OutboundError, outboundFetch, outboundNetwork, outboundText, type OutboundNetwork } from '../../core/http/outbound.ts'
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
export type FeedNetwork = OutboundNetwork

export const feedNetwork = (config: Pick<CalendarSettings, 'calendarFeedsAllowPrivate'>): FeedNetwork => outboundNetwork(config.calendarFeedsAllowPrivate)

/** The one message for an address that is refused or cannot be reached, whatever the reason. */
export const UNREACHABLE = 'The calendar server could not be reached at this address; check that it is the iCal address your calendar gives you'

/** The feed's text. Throws `FeedFetchError` with a message for the person. */
export async function fetchFeed(
	config: Pick<CalendarSettings, 'calendarFeedsAllowPrivate' | 'calendarFeedTimeout'>,
	address: string,
	network: FeedNetwork = feedNetwork(config),
): Promise<string> {
	const tooSlow = `The calendar server did not answer within ${config.calendarFeedTimeout} seconds`
	const messages: Record<OutboundError['failure'], string> = {
		not_web: 'The feed address redirects to something that is not a web address',
		unreachable: UNREACHABLE,
		timeout: tooSlow,
		too_large: `The feed is larger than ${MAX_BYTES / 1024 / 1024} MB`,
		redirects: 'The feed address redirects too many times',
	}
	const policy = {
		allowPrivate: config.calendarFeedsAllowPrivate,
		allowHttp: true,
		timeoutMs: config.calendarFeedTimeout * 1000,
		maxBytes: MAX_BYTES,
		maxRedirects: MAX_REDIRECTS,
		userAgent: 'Benchline calendar sync',
		network,
	}
	try {
		const response = await outboundFetch(address, { headers: { accept: 'text/calendar, text/plain;q=0.5' } }, policy)
		if (response.status !== 200) {
			await response.body?.cancel().catch(() => {})
			throw new FeedFetchError(
				`The calendar server answered ${response.status}${response.status === 404 || response.status === 401 || response.status === 403 ? ': check that the address is the private (secret) iCal address and still valid' : ''}`,
			)
		}
		return await outboundText(response)
	} catch (error) {
		if (error instanceof FeedFetchError) throw error
		if (error instanceof OutboundError) throw new FeedFetchError(messages[error.failure], { cause: error })
		throw new FeedFetchError('The feed could not be read', { cause: error })
	}
}
