/**
 * The messaging-app channel: a provider's HTTP API in the shape of Twilio's Messages API
 * (`POST {MESSAGING_URL}/2010-04-01/Accounts/{account}/Messages.json`, HTTP basic auth, form body
 * `To`, `From`, `Body`; 201 with `{ sid, status }`; errors as `{ code, message }`).
 * A WhatsApp sender (`whatsapp:+1…`) gives the recipient the same prefix.
 */
import type { AppDeps } from '../../core/deps.ts'
import { readLimitedText } from '../../core/http/body.ts'
import { deliveryError as failure, isDeliveryError, type ClaimedRow } from './delivery.ts'
import { outboxSettings, type MessagingConfig } from './settings.ts'

export const NO_PROVIDER = 'No messaging provider is configured (set MESSAGING_ACCOUNT, MESSAGING_TOKEN and MESSAGING_FROM)'

/** Twilio refuses bodies over 1,600 characters. */
export const MAX_MESSAGE_LENGTH = 1600

/**
 * The most of the provider's answer that is read. A real answer (the message resource, or an error
 * object, or a proxy's error page) is a few KB; a broken or hostile provider sending an endless or
 * huge body must not make the worker hold it all in memory, so past this the answer is not read.
 */
export const MAX_ANSWER_BYTES = 64 * 1024

export function recipientAddress(config: MessagingConfig, to: string): string {
	const channel = config.from.startsWith('whatsapp:') ? 'whatsapp:' : ''
	return to.startsWith(channel) ? to : channel + to
}

/** Sends one outbox message; returns the provider's message id. */
export async function sendMessage(deps: AppDeps, row: ClaimedRow): Promise<string> {
	const { messaging: config, messagingTimeout } = deps.config.settings.of(outboxSettings)
	if (!config) throw failure(NO_PROVIDER, true)
	const body = new URLSearchParams({ To: recipientAddress(config, row.to), From: config.from, Body: row.text.slice(0, MAX_MESSAGE_LENGTH) })
	// One deadline for the request and the reading of its answer: a provider that accepts and never
	// answers, or trickles its answer, is given up on and the row retried.
	const deadline = AbortSignal.timeout(messagingTimeout * 1000)
	const timedOut = () => failure(`messaging provider did not answer within ${messagingTimeout} s (MESSAGING_TIMEOUT)`, false)
	let response: Response
	let text: string
	try {
		response = await fetch(`${config.url}/2010-04-01/Accounts/${encodeURIComponent(config.account)}/Messages.json`, {
			method: 'POST',
			headers: {
				authorization: `Basic ${btoa(`${config.account}:${config.token}`)}`,
				'content-type': 'application/x-www-form-urlencoded',
				accept: 'application/json',
			},
			body,
			signal: deadline,
		})
	} catch (error) {
		throw deadline.aborted
			? timedOut()
			: failure(`messaging provider unreachable: ${(error as Error).message}`, false, `messaging provider unreachable${codeOf(error)}`)
	}
	// 4xx means the request itself is wrong (bad number, bad credentials): retrying will not help,
	// except for rate limiting and timeouts.
	const permanent = response.status >= 400 && response.status < 500 && response.status !== 429 && response.status !== 408
	// An answer too big to read is decided by its status, as one that is not JSON is.
	const tooBig = () =>
		failure(`messaging provider: the answer (HTTP ${response.status}) is larger than ${MAX_ANSWER_BYTES / 1024} KiB; it was not read`, permanent)
	try {
		text = await readLimitedText(response, MAX_ANSWER_BYTES, tooBig)
	} catch (error) {
		if (isDeliveryError(error)) throw error
		throw deadline.aborted
			? timedOut()
			: failure(
					`messaging provider: the answer could not be read (${(error as Error).message})`,
					false,
					`messaging provider: the answer could not be read${codeOf(error)}`,
				)
	}
	let json: { sid?: string; status?: string; code?: number; message?: string } = {}
	try {
		json = JSON.parse(text)
	} catch {
		// Not JSON (a proxy's error page): the status code decides.
	}
	if (response.ok && json.sid) {
		if (json.status === 'failed' || json.status === 'undelivered') throw failure(`messaging provider: message ${json.status}`, true)
		return json.sid
	}
	// The provider's message goes to the row only (it names the phone number); a log line says the status and its code.
	const code = typeof json.code === 'number' || (typeof json.code === 'string' && /^[A-Za-z0-9_.-]{1,32}$/.test(json.code)) ? ` (code ${json.code})` : ''
	throw failure(
		`messaging provider: HTTP ${response.status}${json.code ? ` (code ${json.code})` : ''}${json.message ? `: ${json.message}` : ''}`,
		permanent,
		`messaging provider: HTTP ${response.status}${code}`,
	)
}

/** A network error's code (`ECONNREFUSED`, `ConnectionRefused`) for a log line: never its message, which may name the address. */
function codeOf(error: unknown): string {
	const code = (error as { code?: unknown })?.code
	return typeof code === 'string' && /^[A-Za-z0-9_]{1,40}$/.test(code) ? ` (${code})` : ''
}

/** A phone number in E.164 (`+15551234567`); US numbers may be written without the +1. Null when it cannot be one. */
export function toE164(phone: string): string | null {
	const trimmed = phone.trim()
	if (/[a-wyz]/i.test(trimmed)) return null
	const digits = trimmed.replace(/\D/g, '')
	if (trimmed.startsWith('+')) return digits.length >= 8 && digits.length <= 15 && !digits.startsWith('0') ? `+${digits}` : null
	if (digits.length === 10 && !/^[01]/.test(digits)) return `+1${digits}`
	if (digits.length === 11 && digits.startsWith('1')) return `+${digits}`
	return null
}
