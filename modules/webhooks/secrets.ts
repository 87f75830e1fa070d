/**
 * Signing secrets and signatures (Standard Webhooks).
 *
 * - A secret is `whsec_` + base64 of 32 random bytes; the HMAC key is those bytes.
 * - At rest it is sealed with AES-256-GCM under a key derived from the server secret for this purpose
 *   only, bound to the endpoint's id (a sealed secret copied to another endpoint does not open).
 * - `webhook-signature` is `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`; during a rotation one
 *   such entry per live secret, separated by spaces, as the specification allows.
 */
import { createHmac } from 'node:crypto'
import { decodeBase64, encodeBase64 } from '@oslojs/encoding'
import { sealedBox } from '../../core/sealed-box.ts'

const PREFIX = 'whsec_'

export function newSigningSecret(): string {
	return PREFIX + encodeBase64(crypto.getRandomValues(new Uint8Array(32)))
}

/** Signing secrets at rest, each bound to its endpoint's id. */
const box = sealedBox('webhook-signing-secret')

export const sealSecret = (serverSecret: Uint8Array, endpointId: string, secret: string) => box.seal(serverSecret, endpointId, secret)

export const openSecret = (serverSecret: Uint8Array, endpointId: string, sealed: string) => box.open(serverSecret, endpointId, sealed)

/** One `v1,<signature>` entry per secret (the newest first). */
export function signatureHeader(secrets: readonly string[], id: string, timestamp: number, body: string): string {
	return secrets
		.map((s) => {
			const key = decodeBase64(s.startsWith(PREFIX) ? s.slice(PREFIX.length) : s)
			return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`
		})
		.join(' ')
}
