/**
 * One HTTP(S) request sent to an address chosen beforehand, not to whatever the host name resolves to
 * when the connection is opened. `fetch` looks the name up again on its own, so a name whose
 * answer changes between the check and the connection (DNS rebinding) would reach an address that
 * was never checked. Here node's `http`/`https` client gets a `lookup` that answers only with the
 * checked addresses: the socket goes there, while the host name still names the request — `Host`
 * header, TLS server name (SNI) and certificate check — so https stays verified against the name.
 */
import http, { type IncomingMessage } from 'node:http'
import https from 'node:https'
import type { LookupAddress } from 'node:dns'
import { isIP } from 'node:net'
import { Readable } from 'node:stream'

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void

/** A `lookup` for node's sockets that answers `host` with `addresses` (already checked) and nothing else. */
function pinnedLookup(host: string, addresses: readonly string[]) {
	return (hostname: string, options: { family?: number | string; all?: boolean }, callback: LookupCallback) => {
		const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family ?? 0)
		const answers = addresses.map((address) => ({ address, family: isIP(address) })).filter((a) => !family || a.family === family)
		if (hostname !== host || !answers.length) {
			callback(Object.assign(new Error(`no checked address for ${hostname}`), { code: 'ENOTFOUND' }), [])
			return
		}
		if (options.all) callback(null, answers)
		else callback(null, answers[0]!.address, answers[0]!.family)
	}
}

/** Statuses whose answers carry no body (a `Response` refuses one). */
const NO_BODY = new Set([204, 205, 304])

function toResponse(message: IncomingMessage): Response {
	const headers = new Headers()
	for (const [name, value] of Object.entries(message.headers)) for (const v of [value ?? []].flat()) headers.append(name, v)
	const status = message.statusCode ?? 0
	if (NO_BODY.has(status)) {
		message.destroy()
		return new Response(null, { status, headers })
	}
	// Cancelling the body (a redirect, a body over the limit) destroys the message, and so the connection.
	return new Response(Readable.toWeb(message) as unknown as BodyInit, { status, headers })
}

/**
 * Sends `method` to `url`, connecting only to one of `addresses`, checked by the caller (for an
 * address in the URL, that address in the form it was checked). A new connection each time (no
 * agent, no keep-alive), so no pooled socket to an earlier address is reused. `signal` aborts the
 * connection, the answer and its body.
 */
export function pinnedRequest(
	url: URL,
	addresses: readonly string[],
	init: { method: string; signal: AbortSignal; headers: Record<string, string>; body?: Uint8Array },
): Promise<Response> {
	const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
	const client = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : null
	if (!client) return Promise.reject(new Error(`not a web address: ${url.protocol}`))
	if (!addresses.length) return Promise.reject(new Error(`no checked address for ${host}`))
	const length = init.body ? { 'content-length': String(init.body.byteLength) } : {}
	return new Promise<Response>((resolve, reject) => {
		let answer: IncomingMessage | undefined
		const request = client.request(
			{
				protocol: url.protocol,
				// An address in the URL is connected to as it was checked (an IPv4-mapped one as its IPv4).
				hostname: isIP(host) ? addresses[0] : host,
				port: url.port || undefined,
				path: `${url.pathname}${url.search}`,
				method: init.method,
				// The body is read as it comes: ask for it unencoded (node's client does not decompress).
				headers: { ...init.headers, ...length, host: url.host, connection: 'close', 'accept-encoding': 'identity' },
				agent: false,
				lookup: pinnedLookup(host, addresses) as never,
			},
			(message) => {
				answer = message
				try {
					resolve(toResponse(message))
				} catch (error) {
					message.destroy()
					reject(error)
				}
			},
		)
		// Until the body is read or given up: the connection, the answer and its body end with the signal.
		const abort = () => {
			const reason = init.signal.reason instanceof Error ? init.signal.reason : new Error('aborted')
			answer?.destroy(reason)
			request.destroy(reason)
		}
		if (init.signal.aborted) abort()
		else init.signal.addEventListener('abort', abort, { once: true })
		request.once('error', reject)
		request.end(init.body)
	})
}
