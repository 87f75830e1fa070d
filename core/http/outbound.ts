/**
 * The one way Benchline sends a request to an address someone else chose (calendar feeds, webhook
 * endpoints, client metadata documents, identity providers): without turning the server into a
 * proxy for the inside network (SSRF), and without letting a slow or huge answer hold it.
 *
 * - Only web addresses; plain `http:` only when the feature's development switch allows it.
 * - The host name is looked up once per hop and **every** address it gives must be public unicast
 *   (`public-address.ts`), unless private addresses are allowed; the connection goes to an address
 *   that was checked, never to a second look-up (`pinned-request.ts`: no DNS rebinding), and https
 *   is still verified against the name.
 * - Redirects are not followed unless the caller allows some; then each hop is checked again, and a
 *   301/302/303 continues as a GET without a body.
 * - One deadline covers everything (look-ups, redirects, the body), and the body a caller reads is
 *   cut off past `maxBytes` (the stream errors with `OutboundError('too_large')`), whoever reads it.
 *
 * A refused address, a name that does not resolve and a connection that fails are all
 * `unreachable` to the person: telling them apart would let a form map the inside network. The
 * cause is kept (`cause`) for the logs.
 */
import { lookup } from 'node:dns/promises'
import { currentRequest } from '../request-context.ts'
import { SpanKind, SpanStatusCode } from '../tracing.ts'
import { pinnedRequest } from './pinned-request.ts'
import { anyAddress, publicAddress } from './public-address.ts'

/** What a request may reach and how names are looked up; tests replace parts of it. */
export interface OutboundNetwork {
	/** Every address a host name resolves to. */
	resolve(host: string): Promise<string[]>
	/** The address to connect to if `ip` may be reached, else null. */
	reachable(ip: string): string | null
}

export const outboundNetwork = (allowPrivate: boolean): OutboundNetwork => ({
	resolve: async (host) => (await lookup(host, { all: true })).map((a) => a.address),
	reachable: allowPrivate ? anyAddress : publicAddress,
})

export interface OutboundPolicy {
	/** Private, loopback and link-local addresses may be reached (a feature's development switch). */
	readonly allowPrivate: boolean
	/** Plain `http:` may be used; default: as `allowPrivate`. */
	readonly allowHttp?: boolean
	/** The whole exchange, redirects and body included (ms). */
	readonly timeoutMs: number
	/** The most of an answer's body that is read (bytes). */
	readonly maxBytes: number
	/** Redirects followed (each hop checked again); 0 (default): a 3xx is the answer. */
	readonly maxRedirects?: number
	readonly userAgent: string
	/** Name look-ups and the address rule (tests); default `outboundNetwork(allowPrivate)`. */
	readonly network?: OutboundNetwork
}

export type OutboundFailure = 'not_web' | 'unreachable' | 'timeout' | 'too_large' | 'redirects'

export class OutboundError extends Error {
	constructor(
		readonly failure: OutboundFailure,
		message: string,
		options?: { cause?: unknown },
	) {
		super(message, options)
		this.name = 'OutboundError'
	}
}

export interface OutboundInit {
	readonly method?: string
	readonly headers?: Readonly<Record<string, string>>
	readonly body?: string | Uint8Array
}

/**
 * Why `address` may not be used as given (a message for a person), or null: a web address, https
 * unless plain http is allowed, no user name or password in it.
 */
export function outboundUrlProblem(address: string, policy: Pick<OutboundPolicy, 'allowPrivate' | 'allowHttp'>): string | null {
	// The URL parser drops tabs and line breaks and encodes spaces, so such an address would pass and
	// then be stored and shown as typed: words on lines of their own in a page or an e-mail.
	if (INVISIBLE.test(address)) return 'must not hold spaces, line breaks or other invisible characters'
	// A lone surrogate would be stored as U+FFFD and the address called would not be the one typed.
	if (BROKEN.test(address)) return 'holds a broken character (a lone surrogate)'
	const url = URL.parse(address)
	if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:')) return 'must be a web address starting with https://'
	if (url.protocol === 'http:' && !(policy.allowHttp ?? policy.allowPrivate)) return 'must start with https://'
	if (url.username || url.password) return 'must not hold a user name or password'
	return null
}

/** Spaces, controls and format characters (bidirectional overrides, zero-width joiners): none belongs in a typed address. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Z}]/u
/** Half of a character: text that cannot be stored as sent. */
const BROKEN = /\p{Cs}/u

/** Rejects when `signal` aborts: for waits that take no signal of their own (name look-ups). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
	if (signal.aborted) return Promise.reject(signal.reason)
	return new Promise<T>((resolve, reject) => {
		const onAbort = () => reject(signal.reason)
		signal.addEventListener('abort', onAbort, { once: true })
		work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort))
	})
}

const network = (policy: OutboundPolicy) => policy.network ?? outboundNetwork(policy.allowPrivate)

/**
 * The addresses `url` may be reached at: its own address, or every address its name resolves to (one
 * look-up); all of them must be reachable, or none is used. Throws `OutboundError('unreachable')`.
 */
export async function checkedAddresses(url: URL, policy: OutboundPolicy, signal = AbortSignal.timeout(policy.timeoutMs)): Promise<string[]> {
	const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
	const net = network(policy)
	let found: string[]
	if (anyAddress(host)) found = [host]
	else {
		try {
			found = await untilAborted(net.resolve(host), signal)
		} catch (error) {
			if (signal.aborted) throw timedOut(policy, error)
			throw new OutboundError('unreachable', `${host} could not be reached`, { cause: error })
		}
	}
	const reachable = found.map((ip) => net.reachable(ip))
	if (!reachable.length || reachable.some((ip) => ip === null))
		throw new OutboundError('unreachable', `${host} could not be reached`, { cause: new Error(`refused: ${host} is ${found.join(', ') || 'nothing'}`) })
	return [...new Set(reachable as string[])]
}

const timedOut = (policy: OutboundPolicy, cause?: unknown) =>
	new OutboundError('timeout', `no answer within ${Math.round(policy.timeoutMs / 1000)} seconds`, { cause })

/** A body that errors with `too_large` past `maxBytes` (checked against the declared length first), and with `timeout` when the deadline passes. */
function limitedBody(response: Response, policy: OutboundPolicy, signal: AbortSignal): Response {
	const tooLarge = () => new OutboundError('too_large', `the answer is larger than ${policy.maxBytes} bytes`)
	const declared = Number(response.headers.get('content-length') ?? 0)
	if (!response.body) return response
	if (declared > policy.maxBytes) {
		response.body.cancel().catch(() => {})
		const failed = new ReadableStream<Uint8Array>({ start: (c) => c.error(tooLarge()) })
		return new Response(failed, { status: response.status, headers: response.headers })
	}
	let total = 0
	const counted = response.body.pipeThrough(
		new TransformStream<Uint8Array, Uint8Array>({
			transform(chunk, controller) {
				total += chunk.byteLength
				if (total > policy.maxBytes) controller.error(tooLarge())
				else controller.enqueue(chunk)
			},
		}),
	)
	const reader = counted.getReader()
	const body = new ReadableStream<Uint8Array>({
		async pull(controller) {
			try {
				const { done, value } = await reader.read()
				if (done) controller.close()
				else controller.enqueue(value)
			} catch (error) {
				controller.error(signal.aborted && !(error instanceof OutboundError) ? timedOut(policy, error) : error)
			}
		},
		cancel: (reason) => reader.cancel(reason),
	})
	return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers })
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])

/**
 * Sends the request under `policy` (see the file's comment) and returns the answer, its body bounded
 * and under the same deadline. Throws `OutboundError` for an address that is not allowed or cannot
 * be reached, a deadline passed, or too many redirects.
 */
export async function outboundFetch(address: string | URL, init: OutboundInit, policy: OutboundPolicy): Promise<Response> {
	// Inside a traced request or delivery: a client span, and the trace passed on (W3C traceparent).
	// The span names the host only: a path or query (a feed's secret address) is never recorded.
	const tracing = currentRequest()?.tracing
	if (!tracing) return send(address, init, policy)
	const method = (init.method ?? 'GET').toUpperCase()
	const url = new URL(address)
	const attributes = { 'http.request.method': method, 'server.address': url.hostname, 'url.scheme': url.protocol.replace(':', '') }
	return tracing.inSpan(method, { kind: SpanKind.CLIENT, attributes }, async (span) => {
		const response = await send(address, { ...init, headers: { ...init.headers, ...tracing.headers() } }, policy)
		span?.setAttribute('http.response.status_code', response.status)
		if (response.status >= 500) span?.setStatus({ code: SpanStatusCode.ERROR })
		return response
	})
}

async function send(address: string | URL, init: OutboundInit, policy: OutboundPolicy): Promise<Response> {
	let url = new URL(address)
	let method = (init.method ?? 'GET').toUpperCase()
	let body = typeof init.body === 'string' ? new TextEncoder().encode(init.body) : init.body
	const signal = AbortSignal.timeout(policy.timeoutMs)
	const headers = { 'user-agent': policy.userAgent, ...init.headers }
	for (let hop = 0; ; hop++) {
		const problem = outboundUrlProblem(url.href, policy)
		if (problem) throw new OutboundError('not_web', `the address ${problem}`)
		const addresses = await checkedAddresses(url, policy, signal)
		let response: Response
		try {
			response = await pinnedRequest(url, addresses, { method, signal, headers, body })
		} catch (error) {
			if (signal.aborted) throw timedOut(policy, error)
			throw new OutboundError('unreachable', `${url.hostname} could not be reached`, { cause: error })
		}
		const location = response.headers.get('location')
		if (!REDIRECTS.has(response.status) || !location || !policy.maxRedirects) return limitedBody(response, policy, signal)
		await response.body?.cancel().catch(() => {})
		if (hop >= policy.maxRedirects) throw new OutboundError('redirects', 'the address redirects too many times')
		const next = URL.parse(location, url)
		if (next?.protocol !== 'https:' && next?.protocol !== 'http:')
			throw new OutboundError('not_web', 'the address redirects to something that is not a web address')
		if (response.status <= 303 && method !== 'HEAD') {
			method = 'GET'
			body = undefined
		}
		url = next
	}
}

/** The text of an answer from `outboundFetch` (bounded; errors are `OutboundError`s). */
export async function outboundText(response: Response): Promise<string> {
	return new TextDecoder('utf-8', { fatal: false }).decode(await response.arrayBuffer())
}

/**
 * `outboundFetch` in the shape of `fetch`, for a library that takes a fetch function (an OpenID
 * Connect client, say): every request it makes goes through the same checks.
 */
export function outboundFetcher(policy: OutboundPolicy): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
	return async (input, init = {}) => {
		const request = input instanceof Request ? input : null
		const headers = Object.fromEntries(new Headers(init.headers ?? request?.headers).entries())
		const raw = init.body ?? (request?.body ? await request.arrayBuffer() : undefined)
		const body = raw === undefined || raw === null ? undefined : new Uint8Array(await new Response(raw as BodyInit).arrayBuffer())
		return outboundFetch(request?.url ?? input.toString(), { method: init.method ?? request?.method, headers, body }, policy)
	}
}
