/**
 * What a real assistant app does around the OAuth flow, for the end-to-end tests: a loopback
 * callback server (RFC 8252) that receives the redirect, a headless Chromium that signs in through
 * the portal and presses "Allow", and an OAuthClientProvider that keeps what the SDK asks it to.
 */
import type { BrowserContext } from 'playwright-core'

/** A tiny loopback server that receives the authorization response, as a desktop app would. */
export function callbackServer() {
	// One sign-in at a time: the latest waiter gets the next callback.
	let waiting: ((params: URLSearchParams) => void) | null = null
	const server = Bun.serve({
		port: 0,
		hostname: '127.0.0.1',
		fetch(request) {
			const url = new URL(request.url)
			if (url.pathname !== '/callback') return new Response('not here', { status: 404 })
			waiting?.(url.searchParams)
			waiting = null
			return new Response('<!doctype html><title>Done</title><p>You can close this window.</p>', { headers: { 'content-type': 'text/html' } })
		},
	})
	return {
		redirectUri: `http://127.0.0.1:${server.port}/callback`,
		/** The parameters of the next request to the callback address (slow machines: generous timeout). */
		next(timeoutMs = 45_000): Promise<URLSearchParams> {
			const arrived = new Promise<URLSearchParams>((resolve, reject) => {
				const timer = setTimeout(() => reject(new Error('no redirect reached the callback server')), timeoutMs)
				timer.unref?.()
				waiting = (params) => {
					clearTimeout(timer)
					resolve(params)
				}
			})
			arrived.catch(() => {}) // reported where it is awaited
			return arrived
		},
		stop: () => server.stop(true),
	}
}

export type Callback = ReturnType<typeof callbackServer>

export interface ConsentChoice {
	readOnly?: boolean
	decision?: 'allow' | 'cancel'
}

/**
 * Opens the authorization address in the browser, signs in when the portal asks, checks the consent
 * page and presses a button; resolves with the query the app's callback received.
 */
export async function consentInBrowser(
	context: BrowserContext,
	url: URL,
	person: { email: string; password: string },
	callback: Callback,
	choice: ConsentChoice = {},
) {
	const page = await context.newPage()
	const seen: { consentText: string; signedIn: boolean } = { consentText: '', signedIn: false }
	try {
		const arrived = callback.next()
		await page.goto(url.href)
		if (new URL(page.url()).pathname === '/sign-in') {
			seen.signedIn = true
			await page.fill('input[name=email]', person.email)
			await page.fill('input[name=password]', person.password)
			await Promise.all([
				// When sign-in does not lead to consent, say what the page said instead (not only "timeout").
				page
					.waitForURL((u) => u.pathname === '/oauth/authorize')
					.catch(async (error: Error) => {
						const said = ((await page.textContent('body').catch(() => '')) ?? '').replace(/\s+/g, ' ').trim().slice(0, 300)
						throw new Error(`sign-in did not reach the consent page (${page.url()}): "${said}"; ${error.message.split('\n')[0]}`)
					}),
				page.click('form[action="/sign-in"] button[type=submit]'),
			])
		}
		seen.consentText = (await page.textContent('main, body')) ?? ''
		if (choice.readOnly) await page.check('input[name=read_only]')
		await page.click(`button[name=decision][value=${choice.decision ?? 'allow'}]`)
		return { params: await arrived, ...seen }
	} finally {
		await page.close()
	}
}

/** What the SDKs store through the provider (both SDK generations use the same shape). */
export class TestOAuthProvider {
	clientInfo: Record<string, any> | undefined
	saved: Record<string, any> | undefined
	/** Every token response saved, oldest first. */
	readonly history: Record<string, any>[] = []
	readonly authorizationUrls: URL[] = []
	/** The callback query of the last authorization, for finishAuth. */
	lastCallback: URLSearchParams | undefined
	lastConsent: { consentText: string; signedIn: boolean } | undefined
	/** When false, a new authorization is only recorded (the person is away). */
	interactive = true
	choice: ConsentChoice = {}
	private verifier = ''
	private discovery: unknown
	private expectedState = ''

	constructor(
		readonly name: string,
		readonly callback: Callback,
		private readonly browser: { context: BrowserContext; person: { email: string; password: string } },
	) {}

	get redirectUrl() {
		return this.callback.redirectUri
	}
	get clientMetadata() {
		return {
			client_name: this.name,
			redirect_uris: [this.callback.redirectUri],
			grant_types: ['authorization_code', 'refresh_token'],
			response_types: ['code'],
			token_endpoint_auth_method: 'none',
		}
	}
	state() {
		this.expectedState = crypto.randomUUID()
		return this.expectedState
	}
	clientInformation() {
		return this.clientInfo as any
	}
	saveClientInformation(info: Record<string, any>) {
		this.clientInfo = info
	}
	tokens() {
		return this.saved as any
	}
	saveTokens(tokens: Record<string, any>) {
		this.saved = tokens
		this.history.push(tokens)
	}
	saveCodeVerifier(verifier: string) {
		this.verifier = verifier
	}
	codeVerifier() {
		return this.verifier
	}
	saveDiscoveryState(state: unknown) {
		this.discovery = state
	}
	discoveryState() {
		return this.discovery as any
	}
	invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
		if (scope === 'all' || scope === 'tokens') this.saved = undefined
		if (scope === 'all' || scope === 'client') this.clientInfo = undefined
		if (scope === 'all' || scope === 'discovery') this.discovery = undefined
	}
	async redirectToAuthorization(url: URL) {
		this.authorizationUrls.push(url)
		if (!this.interactive) return
		const result = await consentInBrowser(this.browser.context, url, this.browser.person, this.callback, this.choice)
		if (result.params.get('state') !== this.expectedState) throw new Error('the state came back changed')
		this.lastCallback = result.params
		this.lastConsent = result
	}
}

/** A fetch that records `METHOD path status` of every request an SDK makes. */
export function recordingFetch(log: string[]): typeof fetch {
	return (async (input: RequestInfo | URL, init?: RequestInit) => {
		const request = new Request(input, init)
		const response = await fetch(request)
		log.push(`${request.method} ${new URL(request.url).pathname} ${response.status}`)
		return response
	}) as typeof fetch
}
