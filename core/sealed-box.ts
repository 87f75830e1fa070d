/**
 * A secret kept at rest (an identity provider's client secret, a webhook signing secret): sealed with
 * AES-256-GCM under a key derived from the server secret for one purpose only, and bound to the record
 * it belongs to (sealed for one record, it does not open for another). The text is base64url of the
 * 12-byte IV followed by the ciphertext.
 */
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from '@oslojs/encoding'
import { hmacSha256 } from './credentials.ts'

const encoder = new TextEncoder()

export interface SealedBox {
	seal(serverSecret: Uint8Array, boundTo: string, plain: string): Promise<string>
	open(serverSecret: Uint8Array, boundTo: string, sealed: string): Promise<string>
}

/** The box of one purpose (its name derives the key: two purposes never share one). */
export function sealedBox(purpose: string): SealedBox {
	const keys = new WeakMap<Uint8Array, Promise<CryptoKey>>()
	const keyOf = (secret: Uint8Array) => {
		let key = keys.get(secret)
		if (!key) keys.set(secret, (key = crypto.subtle.importKey('raw', new Uint8Array(hmacSha256(secret, purpose)), 'AES-GCM', false, ['encrypt', 'decrypt'])))
		return key
	}
	return {
		async seal(serverSecret, boundTo, plain) {
			const iv = crypto.getRandomValues(new Uint8Array(12))
			const sealed = new Uint8Array(
				await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: encoder.encode(boundTo) }, await keyOf(serverSecret), encoder.encode(plain)),
			)
			const bytes = new Uint8Array(iv.length + sealed.length)
			bytes.set(iv)
			bytes.set(sealed, iv.length)
			return encodeBase64urlNoPadding(bytes)
		},
		async open(serverSecret, boundTo, sealed) {
			const bytes = decodeBase64urlIgnorePadding(sealed)
			const plain = await crypto.subtle.decrypt(
				{ name: 'AES-GCM', iv: bytes.slice(0, 12), additionalData: encoder.encode(boundTo) },
				await keyOf(serverSecret),
				bytes.slice(12),
			)
			return new TextDecoder().decode(plain)
		},
	}
}
