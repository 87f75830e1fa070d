/**
 * A feed's address is a credential: Google's "secret address in iCal format" or Outlook's published
 * ICS link lets whoever reads it read the person's whole calendar. So it is kept like the other
 * secrets (`core/sealed-box.ts`, as webhook signing secrets and SSO client secrets are):
 *
 * - sealed under a key derived from the server secret for this purpose, bound to the person in the
 *   workspace (a sealed address copied to another row does not open), and opened only just before
 *   each fetch;
 * - compared by a keyed hash (HMAC under another key derived from the server secret), never in plain;
 * - shown only masked (the host and the last few characters).
 *
 * Addresses kept in plain text before this (`url`) are sealed by the refresh pass before it claims
 * feeds (`sealPlainAddresses`): idempotent and safe with several instances, and it also seals a row
 * written meanwhile by an instance still running the older code.
 *
 * When the server secret is replaced, a sealed address no longer opens: its feed reports
 * `RECONNECT` (enter the address again) instead of failing the pass.
 */
import { and, eq, isNotNull, sql } from 'drizzle-orm'
import { hmacSha256 } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { sealedBox } from '../../core/sealed-box.ts'
import { calendarFeeds } from './table.ts'

const box = sealedBox('calendar-feed-address')
const boundTo = (workspaceId: string, userId: string) => `${workspaceId}:${userId}`

/** What a feed's row keeps of its address. */
export interface StoredAddress {
	url: null
	urlSealed: string
	urlHash: string
	urlHint: string
}

/** Told to the person when their address no longer opens (the server secret was replaced). */
export const RECONNECT =
	'Your calendar feed address can no longer be read (the server’s secret was replaced): reconnect your calendar by entering its iCal address again'

/** An address that could not be unsealed; its message is `RECONNECT`. */
export class FeedAddressError extends Error {
	constructor(options?: ErrorOptions) {
		super(RECONNECT, options)
	}
}

/** The address with its secret part hidden (feed addresses usually carry a private token). */
export function maskedUrl(url: string): string {
	if (!URL.canParse(url)) return '(hidden address)'
	const u = new URL(url)
	return `${u.protocol}//${u.host}/…${u.pathname.slice(-6)}`
}

/** The keyed hash two equal addresses share (under the same server secret); reveals nothing of them. */
export function addressHash(serverSecret: Uint8Array, url: string): string {
	return hmacSha256(hmacSha256(serverSecret, 'calendar-feed-address-hash'), url).toString('hex')
}

/** The row's columns for a (normalized) address: sealed, its hash and its masked form; no plain text. */
export async function storedAddress(serverSecret: Uint8Array, workspaceId: string, userId: string, url: string): Promise<StoredAddress> {
	return {
		url: null,
		urlSealed: await box.seal(serverSecret, boundTo(workspaceId, userId), url),
		urlHash: addressHash(serverSecret, url),
		urlHint: maskedUrl(url),
	}
}

/** The address to fetch. Throws `FeedAddressError` when it does not open (another server secret). */
export async function openAddress(serverSecret: Uint8Array, workspaceId: string, userId: string, sealed: string): Promise<string> {
	try {
		return await box.open(serverSecret, boundTo(workspaceId, userId), sealed)
	} catch (error) {
		throw new FeedAddressError({ cause: error })
	}
}

/** Seals the addresses still kept in plain text (of one workspace when given); returns how many. */
export async function sealPlainAddresses(deps: AppDeps, workspaceId?: string): Promise<number> {
	const plain = await deps.db
		.select({ workspaceId: calendarFeeds.workspaceId, userId: calendarFeeds.userId, url: calendarFeeds.url })
		.from(calendarFeeds)
		.where(and(isNotNull(calendarFeeds.url), workspaceId ? eq(calendarFeeds.workspaceId, workspaceId) : undefined))
	let sealed = 0
	for (const row of plain) {
		const stored = await storedAddress(deps.secret, row.workspaceId, row.userId, row.url!)
		// Only while the row still holds this plain address: another instance may have sealed it, or the person set another, meanwhile.
		const done = await deps.db
			.update(calendarFeeds)
			.set(stored)
			.where(and(eq(calendarFeeds.workspaceId, row.workspaceId), eq(calendarFeeds.userId, row.userId), sql`${calendarFeeds.url} = ${row.url}`))
			.returning({ userId: calendarFeeds.userId })
		sealed += done.length
	}
	if (sealed) deps.log.info('calendar: sealed feed addresses kept in plain text', { feeds: sealed })
	return sealed
}
