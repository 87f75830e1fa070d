/**
 * Showing a secret once across a redirect (Post/Redirect/Get): the one mechanism for every secret
 * shown once (a new personal token, vendor key, SCIM token or webhook signing secret; a private link
 * an owner chose to reveal). Reloading the page afterwards shows the plain page instead of posting
 * the form again. The secret crosses the redirect in a short-lived cookie sealed with a key derived
 * from the server secret (AES-GCM, bound to the session and the cookie's purpose), limited to the
 * page's path, HttpOnly, and cleared the first time the page is shown.
 *
 * "Shown once" is recorded in the database, not only by clearing the cookie: sealing issues a
 * single-use ticket (`single-use.ts`) whose id travels inside the sealed value, and opening uses it; a sealed
 * cookie replayed (kept by a proxy, a browser extension or a copy) finds no row and shows nothing
 * (issue 26: replaying it within two minutes showed a new vendor key again). The row holds no
 * secret. Two opens at the same time: the delete lets one of them show it.
 */
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from '@oslojs/encoding'
import { hmacSha256 } from '../credentials.ts'
import type { AppDeps } from '../deps.ts'
import { issueTicket, useTicket } from '../single-use.ts'

const MAX_AGE_SECONDS = 120
const encoder = new TextEncoder()

type Deps = Pick<AppDeps, 'config' | 'secret' | 'now' | 'db'>

export interface RevealCookie<T> {
	/** Keeps `value` for the next page of this session (only). */
	seal(deps: Deps, cookie: Record<string, any>, sessionId: string, value: T): Promise<void>
	/** The value kept for this session, if any; the cookie is cleared either way (shown once). */
	open(deps: Deps, cookie: Record<string, any>, sessionId: string): Promise<T | null>
}

/**
 * A reveal cookie named `name`, sent only to `path` and below. `valid` checks the shape of what
 * comes back (anything else counts as nothing to show).
 */
export function revealCookie<T>(name: string, path: string, valid: (value: unknown) => value is T): RevealCookie<T> {
	const keys = new WeakMap<Uint8Array, Promise<CryptoKey>>()
	// One key per cookie: a value sealed for one page never opens on another.
	const sealingKey = (secret: Uint8Array) => {
		let key = keys.get(secret)
		if (!key)
			keys.set(
				secret,
				(key = crypto.subtle.importKey('raw', new Uint8Array(hmacSha256(secret, `reveal-cookie:${name}`)), 'AES-GCM', false, ['encrypt', 'decrypt'])),
			)
		return key
	}
	const options = (deps: Pick<AppDeps, 'config'>) => ({ httpOnly: true, secure: deps.config.https, sameSite: 'lax' as const, path })
	return {
		async seal(deps, cookie, sessionId, value) {
			const until = deps.now().getTime() + MAX_AGE_SECONDS * 1000
			const reveal = await issueTicket(deps, MAX_AGE_SECONDS * 1000)
			const iv = crypto.getRandomValues(new Uint8Array(12))
			const plain = encoder.encode(JSON.stringify({ value, until, reveal }))
			const sealed = new Uint8Array(
				await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: encoder.encode(sessionId) }, await sealingKey(deps.secret), plain),
			)
			const bytes = new Uint8Array(iv.length + sealed.length)
			bytes.set(iv)
			bytes.set(sealed, iv.length)
			cookie[name]!.set({ value: encodeBase64urlNoPadding(bytes), maxAge: MAX_AGE_SECONDS, ...options(deps) })
		},
		async open(deps, cookie, sessionId) {
			const sealed = cookie[name]?.value
			if (typeof sealed !== 'string' || !sealed) return null
			cookie[name]!.set({ value: '', maxAge: 0, ...options(deps) })
			let parsed: { value: unknown; until: number; reveal: unknown }
			try {
				const bytes = new Uint8Array(decodeBase64urlIgnorePadding(sealed))
				const plain = await crypto.subtle.decrypt(
					{ name: 'AES-GCM', iv: bytes.slice(0, 12), additionalData: encoder.encode(sessionId) },
					await sealingKey(deps.secret),
					bytes.slice(12),
				)
				parsed = JSON.parse(new TextDecoder().decode(plain))
			} catch {
				// Tampered, from another session, or sealed with another secret: nothing to show.
				return null
			}
			if (!(parsed.until > deps.now().getTime()) || !valid(parsed.value) || typeof parsed.reveal !== 'string') return null
			// Shown only by the open that uses its ticket: the same cookie opened again finds none.
			return (await useTicket(deps, parsed.reveal)) ? (parsed.value as T) : null
		},
	}
}
