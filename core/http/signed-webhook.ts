/**
 * Signed provider webhooks (the AI interview provider's callbacks, inbound mail): the provider
 * sends `X-…-Timestamp` (Unix seconds) and `X-…-Signature: sha256=<hex>`, the HMAC-SHA256 of
 * `<timestamp>.<raw body>` with the shared secret. Several signatures may be sent, separated by
 * commas (secret rotation); one that matches is enough.
 *
 * Checked in this order, each refusal saying why: the secret is configured (503), both headers
 * are present and well formed (401), the signature matches (401), the timestamp is within five
 * minutes of our clock either way (401: a replay or a badly set clock). Only then is the body
 * looked at; callers make the effect idempotent by the provider's event id.
 */
import { createHmac } from 'node:crypto'
import { safeEqual } from '../credentials.ts'
import type { AppDeps } from '../deps.ts'
import { AppError } from '../errors.ts'
import { readBodyText } from './body.ts'

export const WEBHOOK_TOLERANCE_SECONDS = 300

export interface SignedWebhook {
	/** Header name prefix, e.g. `x-interview` for `X-Interview-Timestamp` and `X-Interview-Signature`. */
	prefix: string
	secret: string | undefined
	/** Environment variable that holds the secret (named in the 503 message). */
	secretName: string
	maxBytes: number
	now: Date
}

/** The signature a provider sends for a body (tests and provider simulators use it too). */
export function signWebhook(secret: string, timestamp: number | string, body: string): string {
	return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`
}

/** Reads the raw body of a signed webhook and returns it once signature and timestamp check out. */
export async function verifiedWebhookBody(request: Request, hook: SignedWebhook): Promise<string> {
	if (!hook.secret) throw new AppError('UNAVAILABLE', `This webhook is not configured: set ${hook.secretName}`)
	const unauthorized = (message: string) => new AppError('UNAUTHORIZED', message)
	const tsName = `${hook.prefix}-timestamp`
	const sigName = `${hook.prefix}-signature`
	const timestamp = request.headers.get(tsName)
	const signatures = request.headers.get(sigName)
	if (!timestamp || !signatures) throw unauthorized(`Signed requests only: send ${headerCase(tsName)} and ${headerCase(sigName)}`)
	if (!/^\d{1,12}$/.test(timestamp)) throw unauthorized(`${headerCase(tsName)} must be the Unix time in seconds`)
	const body = await readBodyText(request, hook.maxBytes)
	const expected = signWebhook(hook.secret, timestamp, body)
	const sent = signatures.split(',').map((s) => s.trim())
	if (!sent.some((s) => safeEqual(s, expected)))
		throw unauthorized(`${headerCase(sigName)} does not match: sign "<timestamp>.<body>" with HMAC-SHA256 and the shared secret, as sha256=<hex>`)
	const age = hook.now.getTime() / 1000 - Number(timestamp)
	if (Math.abs(age) > WEBHOOK_TOLERANCE_SECONDS)
		throw unauthorized(
			`${headerCase(tsName)} is ${Math.round(Math.abs(age))} seconds ${age > 0 ? 'old' : 'in the future'}; at most ${WEBHOOK_TOLERANCE_SECONDS} are accepted (replayed request or wrong clock)`,
		)
	return body
}

/** A provider's signed webhook as a module receives it: its headers' prefix, the setting that holds its secret, its largest body. */
export interface WebhookSigning {
	/** Header name prefix, e.g. `x-interview` for `X-Interview-Timestamp` and `X-Interview-Signature`. */
	prefix: string
	/** Environment variable that holds the secret (named in the 503 message). */
	secretName: string
	maxBytes: number
	/** The secret, read from the module's settings (undefined: the webhook is not configured). */
	secret(deps: AppDeps): string | undefined
}

/**
 * The one way a module receives a signed webhook (the interview provider's callback, inbound mail):
 * a receiver for the route, which hands `handle` the body once signature and timestamp check out
 * (every refusal comes first).
 */
export function signedWebhook<T>(signing: WebhookSigning, handle: (deps: AppDeps, body: string) => Promise<T>) {
	return async (deps: AppDeps, request: Request): Promise<T> => {
		const { prefix, secretName, maxBytes } = signing
		return handle(deps, await verifiedWebhookBody(request, { prefix, secretName, maxBytes, secret: signing.secret(deps), now: deps.now() }))
	}
}

const headerCase = (name: string) => name.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase())
