/**
 * Fetching a person's iCalendar feed without turning the server into a proxy for the inside
 * network (SSRF): http(s) only (`webcal:` is read as https), every address the host resolves to
 * must be public (unless CALENDAR_FEEDS_ALLOW_PRIVATE is on), redirects are followed by hand and
 * checked again, at most 2 MB are read and the whole fetch (name look-ups, redirects and the body
 * included) gives up after `CALENDAR_FEED_TIMEOUT` seconds (10 by default): a server that never
 * answers, or trickles its answer, cannot hold the settings page or the refresh sweep.
 */
import { lookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import type { Config } from '../../core/config.ts'
import { readLimitedText } from '../../core/http/body.ts'

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

function isPrivateAddress(ip: string): boolean {
	if (isIP(ip) === 4) {
		const [a, b] = ip.split('.').map(Number) as [number, number]
		return a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 198 && (b === 18 || b === 19)) || a >= 224
	}
	const v6 = ip.toLowerCase()
	if (v6 === '::' || v6 === '::1') return true
	const mapped = v6.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/)
	if (mapped) return isPrivateAddress(mapped[1]!)
	return /^(fc|fd|fe8|fe9|fea|feb|ff)/.test(v6)
}

/** Rejects when `signal` aborts: for waits that take no signal of their own (name look-ups). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
	if (signal.aborted) return Promise.reject(signal.reason)
	return new Promise<T>((resolve, reject) => {
		const onAbort = () => reject(signal.reason)
		signal.addEventListener('abort', onAbort, { once: true })
		work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
	})
}

async function checkHost(config: Pick<Config, 'calendarFeedsAllowPrivate'>, url: URL, signal: AbortSignal): Promise<void> {
	if (config.calendarFeedsAllowPrivate) return
	const host = url.hostname.replace(/^\[|\]$/g, '')
	let addresses: string[]
	if (isIP(host)) addresses = [host]
	else {
		try {
			addresses = (await untilAborted(lookup(host, { all: true }), signal)).map((a) => a.address)
		} catch {
			if (signal.aborted) throw new FeedFetchError(`The host ${host} could not be looked up in time`)
			throw new FeedFetchError(`The host ${host} could not be found`)
		}
	}
	if (!addresses.length || addresses.some(isPrivateAddress)) throw new FeedFetchError(`The host ${host} is on a private network; use the public address of your calendar feed`)
}

const readLimited = (response: Response) => readLimitedText(response, MAX_BYTES, () => new FeedFetchError('The feed is larger than 2 MB'))

/** The feed's text. Throws `FeedFetchError` with a message for the person. */
export async function fetchFeed(config: Pick<Config, 'calendarFeedsAllowPrivate' | 'calendarFeedTimeout'>, address: string): Promise<string> {
	let url = new URL(address)
	const signal = AbortSignal.timeout(config.calendarFeedTimeout * 1000)
	const tooSlow = `The calendar server did not answer within ${config.calendarFeedTimeout} seconds`
	for (let hop = 0; ; hop++) {
		await checkHost(config, url, signal)
		let response: Response
		try {
			response = await fetch(url, { redirect: 'manual', signal, headers: { accept: 'text/calendar, text/plain;q=0.5', 'user-agent': 'Benchline calendar sync' } })
		} catch (error) {
			throw new FeedFetchError(signal.aborted ? tooSlow : `The calendar server could not be reached (${(error as Error).message})`.slice(0, 300))
		}
		if (response.status >= 300 && response.status < 400 && response.headers.get('location')) {
			await response.body?.cancel().catch(() => {})
			if (hop >= MAX_REDIRECTS) throw new FeedFetchError('The feed address redirects too many times')
			url = new URL(response.headers.get('location')!, url)
			if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new FeedFetchError('The feed address redirects to something that is not a web address')
			continue
		}
		if (response.status !== 200) {
			await response.body?.cancel().catch(() => {})
			throw new FeedFetchError(`The calendar server answered ${response.status}${response.status === 404 || response.status === 401 || response.status === 403 ? ': check that the address is the private (secret) iCal address and still valid' : ''}`)
		}
		try {
			return await readLimited(response)
		} catch (error) {
			if (error instanceof FeedFetchError) throw error
			throw new FeedFetchError(signal.aborted ? tooSlow : 'The feed could not be read')
		}
	}
}
