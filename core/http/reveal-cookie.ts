/**
 * Showing a secret once across a redirect (Post/Redirect/Get): a new personal token, or a private
 * link an owner chose to reveal. Reloading the page afterwards shows the plain page instead of
 * posting the form again. The secret crosses the redirect in a short-lived cookie sealed with a key
 * derived from the server secret (AES-GCM, bound to the session), limited to the page's path,
 * HttpOnly, and cleared the first time the page is shown.
 */
import { hmac } from '@oslojs/crypto/hmac'
import { SHA256 } from '@oslojs/crypto/sha2'
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from '@oslojs/encoding'
import type { AppDeps } from '../deps.ts'

const MAX_AGE_SECONDS = 120
const encoder = new TextEncoder()

type Deps = Pick<AppDeps, 'config' | 'secret' | 'now'>

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
				(key = crypto.subtle.importKey('raw', new Uint8Array(hmac(SHA256, secret, encoder.encode(`reveal-cookie:${name}`))), 'AES-GCM', false, [
					'encrypt',
					'decrypt',
				])),
			)
		return key
	}
	const options = (deps: Pick<AppDeps, 'config'>) => ({ httpOnly: true, secure: deps.config.https, sameSite: 'lax' as const, path })
	return {
		async seal(deps, cookie, sessionId, value) {
			const iv = crypto.getRandomValues(new Uint8Array(12))
			const plain = encoder.encode(JSON.stringify({ value, until: deps.now().getTime() + MAX_AGE_SECONDS * 1000 }))
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
			try {
				const bytes = new Uint8Array(decodeBase64urlIgnorePadding(sealed))
				const plain = await crypto.subtle.decrypt(
					{ name: 'AES-GCM', iv: bytes.slice(0, 12), additionalData: encoder.encode(sessionId) },
					await sealingKey(deps.secret),
					bytes.slice(12),
				)
				const parsed = JSON.parse(new TextDecoder().decode(plain)) as { value: unknown; until: number }
				if (!(parsed.until > deps.now().getTime()) || !valid(parsed.value)) return null
				return parsed.value
			} catch {
				// Tampered, from another session, or sealed with another secret: nothing to show.
				return null
			}
		},
	}
}
