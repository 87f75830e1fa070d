/**
 * The token endpoint's rate limit as the official MCP clients meet it: 429 with Retry-After and
 * `temporarily_unavailable` (modules/auth/oauth/routes.ts, RATE_LIMITED), never the device flow's
 * `slow_down`. Each SDK generation runs its own `auth()` for an app holding a good refresh token
 * while its address is limited: the refresh fails with an error the app can retry, the tokens are
 * kept, and the person is not sent to sign in again (SDK 1.x reads an unknown code such as
 * `slow_down` as server_error, which sends the person to a new authorization); after the limit the
 * same refresh token works.
 */
import { describe, expect, setDefaultTimeout, test } from 'bun:test'
import { auth as authV1 } from '@modelcontextprotocol/sdk/client/auth.js'
import { ServerError, TemporarilyUnavailableError } from '@modelcontextprotocol/sdk/server/auth/errors.js'
import { auth as authV2, OAuthError as OAuthErrorV2 } from '@modelcontextprotocol/client'
import { awayFromMinuteEdge } from '../helpers.ts'
import { portalApp, uniqueAddress } from '../portal.ts'
import { type AS, authServerOn, connectedApp, formPost } from './as-client.ts'

setDefaultTimeout(60_000)

/**
 * The connected app's tokens live in the tests' one database; this server on it allows 3 failed
 * credentials a minute per address (the tests' own servers allow far more).
 */
let limitedServer: Promise<AS> | undefined
async function connectedAppBehindLimit() {
	const app = await connectedApp()
	limitedServer ??= portalApp({ FAILED_CREDENTIALS_PER_ADDRESS_PER_MINUTE: '3' }).then(({ app, deps }) => authServerOn(app, deps))
	return { ...app, ctx: await limitedServer }
}

/** Made-up codes from `address` until its failed-credentials budget is spent. */
async function spendBudget(ctx: AS, address: string) {
	expect(ctx.deps.config.failedCredentialsPerAddressPerMinute).toBe(3)
	for (let i = 0; i < ctx.deps.config.failedCredentialsPerAddressPerMinute; i++) {
		const res = await formPost(ctx, '/oauth/token', { grant_type: 'authorization_code', code: 'made-up', client_id: 'cli_x' }, { 'x-forwarded-for': address })
		expect(res.status).toBe(400)
	}
}

/** What an app keeps, as the SDKs' OAuthClientProvider: redirects and dropped tokens are recorded, not followed. */
function appProvider(clientId: string, tokens: { access_token: string; refresh_token: string }) {
	const seen = { redirectedTo: [] as string[], invalidated: [] as string[], saved: 0 }
	let kept: Record<string, unknown> | undefined = { ...tokens, token_type: 'Bearer' }
	const provider = {
		redirectUrl: 'http://127.0.0.1:43123/callback',
		clientMetadata: { client_name: 'Rate-limited app', redirect_uris: ['http://127.0.0.1:43123/callback'], token_endpoint_auth_method: 'none' },
		clientInformation: () => ({ client_id: clientId }),
		saveClientInformation: () => {},
		tokens: () => kept,
		saveTokens: (t: Record<string, unknown>) => {
			kept = t
			seen.saved++
		},
		redirectToAuthorization: (url: URL) => void seen.redirectedTo.push(String(url)),
		saveCodeVerifier: () => {},
		codeVerifier: () => 'v'.repeat(43),
		invalidateCredentials: (scope: string) => {
			seen.invalidated.push(scope)
			if (scope === 'tokens' || scope === 'all') kept = undefined
		},
	}
	return { provider, seen, kept: () => kept }
}

const generations = [
	{ label: '@modelcontextprotocol/sdk 1.x', auth: authV1 as (p: any, o: any) => Promise<string> },
	{ label: '@modelcontextprotocol/client 2.x', auth: authV2 as (p: any, o: any) => Promise<string> },
]

describe('a rate-limited token endpoint', () => {
	test('answers 429 with Retry-After and temporarily_unavailable (a code RFC 6749 registers; slow_down is the device flow’s)', async () => {
		const { ctx, client, tokens } = await connectedAppBehindLimit()
		await awayFromMinuteEdge()
		const address = uniqueAddress()
		await spendBudget(ctx, address)
		const limited = await formPost(
			ctx,
			'/oauth/token',
			{ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: client.client_id },
			{ 'x-forwarded-for': address },
		)
		expect([limited.status, limited.json.error]).toEqual([429, 'temporarily_unavailable'])
		expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1)
		expect(limited.headers.get('cache-control')).toContain('no-store')
	})

	test.each(generations)(
		'$label: the refresh fails with an error the app can retry; its tokens are kept and no new sign-in starts',
		async ({ label, auth }) => {
			const { ctx, client, tokens } = await connectedAppBehindLimit()
			await awayFromMinuteEdge()
			const address = uniqueAddress()
			const fetchFn = (url: string | URL, init: RequestInit = {}) => {
				const headers = new Headers(init.headers)
				headers.set('x-forwarded-for', address)
				return ctx.http(String(url), { ...init, headers })
			}
			await spendBudget(ctx, address)
			const app = appProvider(client.client_id, tokens)
			const failure = await auth(app.provider, { serverUrl: new URL(ctx.resource), fetchFn }).then(
				() => null,
				(error: unknown) => error,
			)
			expect(failure).not.toBeNull()
			if (label.includes('1.x')) {
				expect(failure).toBeInstanceOf(TemporarilyUnavailableError)
				expect(failure).not.toBeInstanceOf(ServerError)
			} else {
				expect(failure).toBeInstanceOf(OAuthErrorV2)
				expect((failure as InstanceType<typeof OAuthErrorV2>).code).toBe('temporarily_unavailable')
			}
			expect(app.seen.redirectedTo).toEqual([])
			expect(app.seen.invalidated).toEqual([])
			expect(app.kept()?.refresh_token).toBe(tokens.refresh_token)

			// From an address with budget left (the limit passed), the same refresh token works.
			const other = uniqueAddress()
			const later = await auth(app.provider, {
				serverUrl: new URL(ctx.resource),
				fetchFn: (url: string | URL, init: RequestInit = {}) => {
					const headers = new Headers(init.headers)
					headers.set('x-forwarded-for', other)
					return ctx.http(String(url), { ...init, headers })
				},
			})
			expect(later).toBe('AUTHORIZED')
			expect(app.kept()?.refresh_token).not.toBe(tokens.refresh_token)
		},
	)
})
