/**
 * Showing a new token once across a redirect (Post/Redirect/Get), so that reloading the page after
 * creating a token shows the plain settings page instead of posting the form again (which made a
 * second token). The token crosses the redirect in a short-lived cookie sealed with the server
 * secret (AES-GCM, bound to the session), limited to the settings page, HttpOnly, and cleared the
 * first time the page is shown.
 */
import { hmac } from '@oslojs/crypto/hmac'
import { SHA256 } from '@oslojs/crypto/sha2'
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from '@oslojs/encoding'
import type { AppDeps } from '../../core/deps.ts'

const COOKIE = 'bl_new_token'
const PATH = '/settings/api'
const MAX_AGE_SECONDS = 120
const encoder = new TextEncoder()

export interface Revealed {
	name: string
	token: string
}

const keys = new WeakMap<Uint8Array, Promise<CryptoKey>>()
function sealingKey(secret: Uint8Array): Promise<CryptoKey> {
	let key = keys.get(secret)
	if (!key) keys.set(secret, (key = crypto.subtle.importKey('raw', new Uint8Array(hmac(SHA256, secret, encoder.encode('reveal-cookie'))), 'AES-GCM', false, ['encrypt', 'decrypt'])))
	return key
}

const cookieOptions = (deps: Pick<AppDeps, 'config'>) => ({ httpOnly: true, secure: deps.config.https, sameSite: 'lax' as const, path: PATH })

/** Keeps the new token for the next page of this session (only). */
export async function sealReveal(deps: Pick<AppDeps, 'config' | 'secret' | 'now'>, cookie: Record<string, any>, sessionId: string, value: Revealed): Promise<void> {
	const iv = crypto.getRandomValues(new Uint8Array(12))
	const plain = encoder.encode(JSON.stringify({ ...value, until: deps.now().getTime() + MAX_AGE_SECONDS * 1000 }))
	const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: encoder.encode(sessionId) }, await sealingKey(deps.secret), plain))
	const bytes = new Uint8Array(iv.length + sealed.length)
	bytes.set(iv)
	bytes.set(sealed, iv.length)
	cookie[COOKIE]!.set({ value: encodeBase64urlNoPadding(bytes), maxAge: MAX_AGE_SECONDS, ...cookieOptions(deps) })
}

/** The token kept for this session, if any; the cookie is cleared either way (shown once). */
export async function openReveal(deps: Pick<AppDeps, 'config' | 'secret' | 'now'>, cookie: Record<string, any>, sessionId: string): Promise<Revealed | null> {
	const value = cookie[COOKIE]?.value
	if (typeof value !== 'string' || !value) return null
	cookie[COOKIE]!.set({ value: '', maxAge: 0, ...cookieOptions(deps) })
	try {
		const bytes = new Uint8Array(decodeBase64urlIgnorePadding(value))
		const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: bytes.slice(0, 12), additionalData: encoder.encode(sessionId) }, await sealingKey(deps.secret), bytes.slice(12))
		const parsed = JSON.parse(new TextDecoder().decode(plain)) as Revealed & { until: number }
		if (typeof parsed.token !== 'string' || typeof parsed.name !== 'string' || !(parsed.until > deps.now().getTime())) return null
		return { name: parsed.name, token: parsed.token }
	} catch {
		// Tampered, from another session, or sealed with another secret: nothing to show.
		return null
	}
}
