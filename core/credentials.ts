/**
 * Secrets and identifiers.
 *
 * Typed credentials (vendor keys, personal tokens, OAuth tokens, codes, upload links, password
 * reset links) look like `bl_<type>_<30 random base62><6 base62 CRC32 checksum>`: scannable by
 * secret scanners, rejected without a database query when mistyped, and stored only as their
 * SHA-256 (hex).
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'

/**
 * Every credential type. The log's masking (`core/log.ts`), the blanking of credentials in text for
 * assistants (`core/untrusted.ts`) and the CI secret scan of the test log (`.ci/run`, checked by
 * `tests/reliability/redaction.test.ts`) all follow this list.
 */
export const CREDENTIAL_TYPES = ['vk', 'pat', 'at', 'rt', 'code', 'ul', 'pwr', 'scim', 'prq'] as const
export type CredentialType = (typeof CREDENTIAL_TYPES)[number]
/** The types as a regular-expression group, `(?:vk|pat|…)`. */
export const CREDENTIAL_TYPE_GROUP = `(?:${CREDENTIAL_TYPES.join('|')})`

/**
 * A webhook signing secret as Standard Webhooks writes it (`whsec_` and the base64 of its 32 bytes:
 * modules/webhooks/secrets.ts), as a regular expression's source: the other secret Benchline gives out
 * in a shape of its own, masked in logs and blanked in stored text as the `bl_` credentials are.
 */
export const SIGNING_SECRET_SOURCE = String.raw`\bwhsec_[A-Za-z0-9+/]{43}=`

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const BODY_LENGTH = 30
const CHECK_LENGTH = 6
const encoder = new TextEncoder()

function base62(bytes: Uint8Array, length: number): string {
	// Rejection sampling keeps every character uniformly likely.
	let out = ''
	let i = 0
	while (out.length < length) {
		if (i >= bytes.length) {
			bytes = crypto.getRandomValues(new Uint8Array(length * 2))
			i = 0
		}
		const b = bytes[i++]!
		if (b < 248) out += BASE62[b % 62]
	}
	return out
}

function base62Fixed(n: number, length: number): string {
	let out = ''
	for (let i = 0; i < length; i++) {
		out = BASE62[n % 62] + out
		n = Math.floor(n / 62)
	}
	return out
}

function checksum(text: string): string {
	return base62Fixed(Bun.hash.crc32(text) >>> 0, CHECK_LENGTH)
}

/** A new random credential of the given type, e.g. `bl_vk_…`. Show it once; store `hashSecret(it)`. */
export function newCredential(type: CredentialType): string {
	const head = `bl_${type}_` + base62(crypto.getRandomValues(new Uint8Array(BODY_LENGTH * 2)), BODY_LENGTH)
	return head + checksum(head)
}

const CREDENTIAL_SHAPE = new RegExp(`^bl_${CREDENTIAL_TYPE_GROUP}_[0-9A-Za-z]{36}$`)

/** The credential's type when it is well formed and its checksum matches; otherwise null. */
export function credentialType(token: string): CredentialType | null {
	if (!CREDENTIAL_SHAPE.test(token)) return null
	const head = token.slice(0, -CHECK_LENGTH)
	if (checksum(head) !== token.slice(-CHECK_LENGTH)) return null
	return token.slice(3, token.indexOf('_', 3)) as CredentialType
}

/**
 * SHA-256 of a secret as lowercase hex: the only form in which secrets are stored. Native hashing
 * (it runs on every authenticated request; the pure-JS digest cost ~5 % of a publish).
 */
export function hashSecret(secret: string): string {
	return createHash('sha256').update(secret).digest('hex')
}

/**
 * HMAC-SHA-256 of `data` under `key` (cursors, CSRF tokens, file links, derived keys). Native:
 * a list's cursor is signed on every page, and the pure-JS digest was 4 % of a `list_jobs` call.
 */
export function hmacSha256(key: Uint8Array, data: string): Buffer {
	return createHmac('sha256', key).update(data).digest()
}

/** Constant-time string comparison (for CSRF tokens, PKCE verifiers, signatures). */
export function safeEqual(a: string, b: string): boolean {
	const x = encoder.encode(a)
	const y = encoder.encode(b)
	if (x.length !== y.length) return false
	return timingSafeEqual(x, y)
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567'

/**
 * `length` random characters of lower-case base32, 5 bits each (a byte's low 5 bits: 256 is a
 * multiple of 32, so every character is equally likely). Ids are drawn on every write, and a
 * general base32 encoder cost about 3 µs an id (4 % of a publish's JavaScript).
 */
function randomBase32(length: number): string {
	let out = ''
	for (const byte of crypto.getRandomValues(new Uint8Array(length))) out += BASE32[byte & 31]
	return out
}

/** A random token for cookies (sessions, CSRF): 160 bits by default, base32 (the same text as base32 of `bytes` random bytes). */
export function randomToken(bytes = 20): string {
	return randomBase32(Math.ceil((bytes * 8) / 5))
}

/** A new opaque identifier with a type prefix, e.g. `job_k3x…` (100 random bits). */
export function newId(prefix: string): string {
	return `${prefix}_${randomBase32(20)}`
}

/** A short, human-friendly suffix for public slugs. */
export function shortCode(length = 6): string {
	return randomBase32(length)
}
