/**
 * Values only the recipient may see, such as a candidate's upload link (a `bl_ul_…` credential).
 *
 * Rules:
 * - The outbox never holds such a value in plain text. At enqueueing, every place it appears in
 *   the text becomes `PRIVATE_MARKER`, and the value (with where it goes) is sealed with a key
 *   derived from the server secret (AES-256-GCM, bound to the row's id) in `private_sealed`.
 * - Everything that shows outbox text (the outbox page, the dev mailbox, the inbox copy) shows the
 *   marker. Only the worker opens the seal, at send time, to fill the value in; the text it sends
 *   has the value exactly where the caller put it, on every attempt. The one exception is on
 *   purpose: while a row is held in the dev mailbox (no SMTP), an owner or admin may reveal a value
 *   its sender marked revealable (a candidate's upload link, never a password reset link), one row
 *   at a time, written to the activity log (`reveal.ts`).
 * - Once the row is sent, failed for good or not sent, the sealed value is erased (the worker and
 *   the enqueueing do it): nothing recoverable remains. Such a row cannot be sent again.
 */
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from '@oslojs/encoding'
import { hmacSha256 } from '../../core/credentials.ts'

/** What outbox text shows in place of a value only the recipient may see. The inbox copy reads the same. */
export const PRIVATE_MARKER = '[private link, sent to the recipient only]'

/** A value in a new outbox row's text that only its recipient may see, and the server secret to seal it with. */
export interface RecipientOnly {
	value: string
	serverSecret: Uint8Array
	/**
	 * An owner or admin may have it shown while the mail is held in the dev mailbox (a candidate's
	 * upload link: trying the upload page needs no mail catcher). Never for a credential to
	 * someone's account (a password reset link). Default false.
	 */
	revealable?: boolean
}

interface Sealed {
	value: string
	/** Offsets of the markers in the stored text, in increasing order. */
	at: number[]
}

const encoder = new TextEncoder()
const keys = new WeakMap<Uint8Array, Promise<CryptoKey>>()

/** A key for this purpose only: derived, so the server secret itself never encrypts anything. */
function sealingKey(secret: Uint8Array): Promise<CryptoKey> {
	let key = keys.get(secret)
	if (!key)
		keys.set(
			secret,
			(key = crypto.subtle.importKey('raw', new Uint8Array(hmacSha256(secret, 'outbox-recipient-only')), 'AES-GCM', false, ['encrypt', 'decrypt'])),
		)
	return key
}

/**
 * The text to store (the value replaced by the marker wherever it appears) and the sealed value.
 * Throws when the value is not in the text (the caller built the wrong text: nothing would reach the
 * recipient) or is in another field (`elsewhere`: subject, HTML), which would keep it in plain text.
 */
export async function sealPrivate(
	rowId: string,
	text: string,
	secret: RecipientOnly,
	elsewhere: (string | null | undefined)[] = [],
): Promise<{ text: string; sealed: string }> {
	const { value } = secret
	if (value.length < 16) throw new Error('a recipient-only value must be a credential, not a short word')
	if (!text.includes(value)) throw new Error('the recipient-only value is not in the text')
	if (elsewhere.some((field) => field?.includes(value))) throw new Error('the recipient-only value may only be in the text')
	const parts = text.split(value)
	const at: number[] = []
	let stored = parts[0]!
	for (const part of parts.slice(1)) {
		at.push(stored.length)
		stored += PRIVATE_MARKER + part
	}
	const iv = crypto.getRandomValues(new Uint8Array(12))
	const plain = encoder.encode(JSON.stringify({ value, at } satisfies Sealed))
	const sealed = new Uint8Array(
		await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: encoder.encode(rowId) }, await sealingKey(secret.serverSecret), plain),
	)
	const bytes = new Uint8Array(iv.length + sealed.length)
	bytes.set(iv)
	bytes.set(sealed, iv.length)
	return { text: stored, sealed: encodeBase64urlNoPadding(bytes) }
}

async function openSeal(serverSecret: Uint8Array, row: { id: string; privateSealed: string }): Promise<Sealed> {
	const bytes = new Uint8Array(decodeBase64urlIgnorePadding(row.privateSealed))
	const plain = await crypto.subtle.decrypt(
		{ name: 'AES-GCM', iv: bytes.slice(0, 12), additionalData: encoder.encode(row.id) },
		await sealingKey(serverSecret),
		bytes.slice(12),
	)
	return JSON.parse(new TextDecoder().decode(plain)) as Sealed
}

/** The sealed value itself (for Reveal link in the dev mailbox only; see the rules above). */
export async function sealedValue(serverSecret: Uint8Array, row: { id: string; privateSealed: string }): Promise<string> {
	return (await openSeal(serverSecret, row)).value
}

/**
 * The text as it goes to the recipient: the sealed value put back at each of its markers. Only the
 * worker, at send time, and tests playing the recipient call this; nothing shown to staff does.
 * Throws when the seal cannot be opened (another server secret, another row's seal, tampering).
 */
export async function textToSend(serverSecret: Uint8Array, row: { id: string; text: string; privateSealed: string | null }): Promise<string> {
	if (row.privateSealed === null) return row.text
	const { value, at } = await openSeal(serverSecret, { id: row.id, privateSealed: row.privateSealed })
	let text = row.text
	// From the last marker back, so the earlier offsets stay right.
	for (const offset of [...at].reverse()) {
		if (text.slice(offset, offset + PRIVATE_MARKER.length) !== PRIVATE_MARKER)
			throw new Error('the text no longer has the private value’s marker where it was sealed')
		text = text.slice(0, offset) + value + text.slice(offset + PRIVATE_MARKER.length)
	}
	return text
}
