/**
 * The two search-engine protocols. Each send answers with what to do with the notices it carried:
 * `sent` (remove them), `retry` (the engine or the network failed: try again later) or `refused` (the
 * engine says the request is wrong — a bad key, a host it does not accept: retrying cannot help).
 */
import { JWT } from 'google-auth-library'
import type { AppDeps } from '../../core/deps.ts'
import { OutboundError, outboundFetch, type OutboundPolicy } from '../../core/http/outbound.ts'
import { indexingSettings, type ServiceAccount } from './settings.ts'

export type SendOutcome = { outcome: 'sent' } | { outcome: 'retry' | 'refused'; reason: string }

/**
 * The endpoints are the operator's own choice (settings), not addresses a user typed: a private or
 * plain-http endpoint is allowed (a relay inside the network, the tests' receivers). Size and time
 * stay bounded, and no redirect is followed.
 */
const POLICY: OutboundPolicy = {
	allowPrivate: true,
	allowHttp: true,
	timeoutMs: 10_000,
	maxBytes: 16 * 1024,
	maxRedirects: 0,
	userAgent: 'Benchline-Indexing/1.0',
}

/** IndexNow takes up to 10,000 addresses of one host in a request. */
export const INDEXNOW_MAX_URLS = 10_000

function judged(status: number): SendOutcome {
	if (status >= 200 && status < 300) return { outcome: 'sent' }
	// 429: too many requests; 5xx: the engine's trouble. Both pass.
	if (status === 429 || status >= 500) return { outcome: 'retry', reason: `HTTP ${status}` }
	return { outcome: 'refused', reason: `HTTP ${status}` }
}

async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<SendOutcome> {
	try {
		const response = await outboundFetch(
			url,
			{ method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json; charset=utf-8', ...headers } },
			POLICY,
		)
		await response.body?.cancel()
		return judged(response.status)
	} catch (error) {
		return { outcome: 'retry', reason: error instanceof OutboundError ? error.failure : 'unreachable' }
	}
}

/** One IndexNow request for pages of one host (`urls` all on `host`). */
export function sendIndexNow(deps: Pick<AppDeps, 'config'>, host: string, urls: readonly string[]): Promise<SendOutcome> {
	const { indexNowKey, indexNowEndpoint } = deps.config.settings.of(indexingSettings)
	const keyLocation = `${deps.config.baseUrl}/${indexNowKey}.txt`
	return post(indexNowEndpoint, { host, key: indexNowKey, keyLocation, urlList: urls })
}

const clients = new WeakMap<ServiceAccount, JWT>()

/**
 * The Indexing API's bearer token: a JWT the service account signs itself with the indexing scope
 * (the auth library's self-signed JWT access, which Google's APIs accept without a token exchange),
 * remade by the library before it expires.
 */
async function googleAuthorization(account: ServiceAccount): Promise<string> {
	let client = clients.get(account)
	if (!client) {
		client = new JWT({ email: account.clientEmail, key: account.privateKey, keyId: account.privateKeyId, scopes: ['https://www.googleapis.com/auth/indexing'] })
		// Set on the instance: the constructor's options do not take it.
		client.useJWTAccessWithScope = true
		clients.set(account, client)
	}
	const headers = await client.getRequestHeaders()
	return headers.get('authorization') ?? ''
}

/** One Indexing API notification: `URL_UPDATED` or `URL_DELETED`. */
export async function sendGoogle(deps: Pick<AppDeps, 'config'>, url: string, action: 'updated' | 'deleted'): Promise<SendOutcome> {
	const { googleAccount, googleIndexingEndpoint } = deps.config.settings.of(indexingSettings)
	if (!googleAccount) return { outcome: 'refused', reason: 'GOOGLE_INDEXING_CREDENTIALS is not set' }
	let authorization: string
	try {
		authorization = await googleAuthorization(googleAccount)
	} catch (error) {
		return { outcome: 'refused', reason: `the service account key cannot sign: ${(error as Error).message.split('\n')[0]}` }
	}
	return post(googleIndexingEndpoint, { url, type: action === 'deleted' ? 'URL_DELETED' : 'URL_UPDATED' }, { authorization })
}
