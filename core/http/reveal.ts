/**
 * Showing a new secret once across a redirect (Post/Redirect/Get), so that reloading the page after
 * creating a personal token or a vendor API key shows the plain page instead of posting the form
 * again (which would make a second one). The secret crosses the redirect in a short-lived cookie
 * sealed with the server secret (AES-GCM, bound to the session and to the cookie's purpose),
 * limited to the page's path, HttpOnly, and cleared the first time the page is shown.
 */
import { hmac } from '@oslojs/crypto/hmac'
import { SHA256 } from '@oslojs/crypto/sha2'
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from '@oslojs/encoding'
import type { AppDeps } from '../deps.ts'

const MAX_AGE_SECONDS = 120
const encoder = new TextEncoder()

const keys = new WeakMap<Uint8Array, Promise<CryptoKey>>()
function sealingKey(secret: Uint8Array): Promise<CryptoKey> {
	let key = keys.get(secret)
	if (!key) keys.set(secret, (key = crypto.subtle.importKey('raw', new Uint8Array(hmac(SHA256, secret, encoder.encode('reveal-cookie'))), 'AES-GCM', false, ['encrypt', 'decrypt'])))
	return key
}

type Deps = Pick<AppDeps, 'config' | 'secret' | 'now'>

export interface OneTimeReveal<T> {
	/** Keeps the value for the next page of this session (only). */
	seal(deps: Deps, cookie: Record<string, any>, sessionId: string, value: T): Promise<void>
	/** The value kept for this session, if any; the cookie is cleared either way (shown once). */
	open(deps: Deps, cookie: Record<string, any>, sessionId: string): Promise<T | null>
}

/**
 * A one-time reveal in the cookie `name`, sent only to pages under `path`. `read` checks the shape
 * of what was sealed (null: nothing to show).
 */
export function oneTimeReveal<T extends object>(o: { name: string; path: string; read: (value: Record<string, unknown>) => T | null }): OneTimeReveal<T> {
	const cookieOptions = (deps: Pick<AppDeps, 'config'>) => ({ httpOnly: true, secure: deps.config.https, sameSite: 'lax' as const, path: o.path })
	// Bound to the purpose too: a value sealed for one page never opens on another.
	const boundTo = (sessionId: string) => encoder.encode(`${o.name}:${sessionId}`)
	return {
		async seal(deps, cookie, sessionId, value) {
			const iv = crypto.getRandomValues(new Uint8Array(12))
			const plain = encoder.encode(JSON.stringify({ ...value, until: deps.now().getTime() + MAX_AGE_SECONDS * 1000 }))
			const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: boundTo(sessionId) }, await sealingKey(deps.secret), plain))
			const bytes = new Uint8Array(iv.length + sealed.length)
			bytes.set(iv)
			bytes.set(sealed, iv.length)
			cookie[o.name]!.set({ value: encodeBase64urlNoPadding(bytes), maxAge: MAX_AGE_SECONDS, ...cookieOptions(deps) })
		},
		async open(deps, cookie, sessionId) {
			const value = cookie[o.name]?.value
			if (typeof value !== 'string' || !value) return null
			cookie[o.name]!.set({ value: '', maxAge: 0, ...cookieOptions(deps) })
			try {
				const bytes = new Uint8Array(decodeBase64urlIgnorePadding(value))
				const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: bytes.slice(0, 12), additionalData: boundTo(sessionId) }, await sealingKey(deps.secret), bytes.slice(12))
				const parsed = JSON.parse(new TextDecoder().decode(plain)) as Record<string, unknown>
				if (!(typeof parsed.until === 'number' && parsed.until > deps.now().getTime())) return null
				return o.read(parsed)
			} catch {
				// Tampered, from another session or purpose, or sealed with another secret: nothing to show.
				return null
			}
		},
	}
}
