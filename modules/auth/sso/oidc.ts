/**
 * The relying party: `openid-client` (panva) talks to the workspace's identity provider, every
 * request through core/http/outbound.ts (public addresses over https only, unless SSO_ALLOW_HTTP is
 * on; bounded time and size; no redirects). The ID token's signature is checked too
 * (`enableNonRepudiationChecks`), besides its issuer, audience, expiry and nonce.
 */
import * as client from 'openid-client'
import type { AppDeps } from '../../../core/deps.ts'
import { OutboundError, outboundFetcher, outboundUrlProblem, type OutboundPolicy } from '../../../core/http/outbound.ts'
import { isEmailAddress, normalEmail } from '../../../core/email.ts'
import { discoveryFetch } from './discovery-cache.ts'

const policy = (deps: AppDeps): OutboundPolicy => ({
	allowPrivate: deps.config.ssoAllowHttp,
	allowHttp: deps.config.ssoAllowHttp,
	timeoutMs: 10_000,
	maxBytes: 512 * 1024,
	maxRedirects: 0,
	userAgent: 'Benchline single sign-on',
})

/**
 * How far the provider's clock may be from ours when the ID token's `nbf` and `exp` are read: five
 * minutes, the skew Microsoft's identity libraries allow. openid-client's default, 30 s, refused
 * every sign-in while the provider's clock ran half a minute ahead of this server's (its `nbf` still
 * in our future). A token is used once (its state and nonce are spent), so the margin replays nothing;
 * one expired for longer, or not valid for longer, is still refused.
 */
export const CLOCK_TOLERANCE_SECONDS = 300

/** Thrown with a sentence for the owner (settings) or the person signing in. */
export class SsoProblem extends Error {}

/** What is wrong with an issuer address as typed, or null. */
export const issuerProblem = (deps: AppDeps, issuer: string) => outboundUrlProblem(issuer, policy(deps))

export interface ProviderClient {
	issuer: string
	clientId: string
	clientSecret: string
}

/**
 * The provider's configuration from its discovery document; throws `SsoProblem` saying what is wrong.
 * Sign-ins read the document kept for a few minutes (discovery-cache.ts); `fresh` (an owner saving
 * the settings) reads it from the provider now.
 */
export async function discover(deps: AppDeps, p: ProviderClient, o: { fresh?: boolean } = {}): Promise<client.Configuration> {
	const problem = issuerProblem(deps, p.issuer)
	if (problem) throw new SsoProblem(`The issuer URL ${problem}`)
	const fetcher = outboundFetcher(policy(deps)) as client.CustomFetch
	const document = discoveryFetch(discoveryKey(deps, p.issuer), { now: deps.now().getTime(), fresh: o.fresh === true, fetcher })
	let config: client.Configuration
	try {
		const metadata = { client_secret: p.clientSecret, [client.clockTolerance]: CLOCK_TOLERANCE_SECONDS }
		config = await client.discovery(new URL(p.issuer), p.clientId, metadata, undefined, {
			[client.customFetch]: document.fetch,
			execute: [...(deps.config.ssoAllowHttp ? [client.allowInsecureRequests] : []), client.enableNonRepudiationChecks],
		})
	} catch (error) {
		document.forget()
		throw new SsoProblem(discoveryProblem(p.issuer, error), { cause: error })
	}
	requireOneOrganisation(p.issuer, config.serverMetadata().issuer)
	// Only the document is kept: the keys, token and UserInfo endpoints are asked anew each time.
	config[client.customFetch] = fetcher
	return config
}

/** The discovery cache's key of an issuer, kept apart by policy: a document fetched where SSO_ALLOW_HTTP allows more is never used where it does not. */
export const discoveryKey = (deps: AppDeps, issuer: string) => `${deps.config.ssoAllowHttp ? 'http-allowed' : 'https-only'} ${issuer}`

/**
 * Refuses an issuer that stands for many organisations: Microsoft Entra ID's `common` and
 * `organizations` name `https://login.microsoftonline.com/{tenantid}/v2.0`, and openid-client then
 * takes an ID token from any tenant (its `iss` read with the token's own `tid`). Any Entra tenant's
 * administrator can give one of their users any `email`, unverified: with such an issuer, an outsider
 * signed in as a person of the firm's verified domain (Microsoft's own warning about the `email` claim).
 * A tenant's own issuer (`…/<tenant id>/v2.0`) vouches for that tenant's people only.
 */
function requireOneOrganisation(issuer: string, documentIssuer: string): void {
	if (!documentIssuer.includes('{tenantid}')) return
	throw new SsoProblem(
		`${issuer} takes sign-ins from every Microsoft Entra organisation, and any of them could send an address of your domain: enter your own tenant’s issuer, https://login.microsoftonline.com/<your tenant ID>/v2.0`,
	)
}

/**
 * Two spellings of one issuer: equal as URLs (the host in any case, a default port written or not)
 * but for a trailing slash, so both read the same discovery document (…/oauth2/default/.well-known/…).
 */
export const sameIssuer = (a: string, b: string) => issuerSpelling(a) === issuerSpelling(b)
const issuerSpelling = (issuer: string) => (URL.canParse(issuer) ? new URL(issuer).href : issuer).replace(/\/+$/, '')

/**
 * The issuer an owner saves, checked against its discovery document now: as typed, or the one the
 * document names when the two differ only by a trailing slash. OpenID Connect compares issuers
 * exactly, and the ID token's `iss` is the document's, so `https://firm.okta.com/oauth2/default/`
 * copied with a slash its provider does not write (or Auth0's `https://firm.auth0.com/` typed
 * without it, under a path) was refused as "another issuer" although it reads the same document.
 */
export async function checkedIssuer(deps: AppDeps, p: ProviderClient): Promise<string> {
	try {
		await discover(deps, p, { fresh: true })
		return p.issuer
	} catch (error) {
		const named = error instanceof SsoProblem ? issuerNamedInstead(error.cause) : undefined
		if (named === undefined || named === p.issuer || !sameIssuer(named, p.issuer)) throw error
		await discover(deps, { ...p, issuer: named }, { fresh: true })
		return named
	}
}

/** The issuer a discovery document named instead of the one expected (openid-client's comparison failure), if that was the failure. */
function issuerNamedInstead(error: unknown): string | undefined {
	if (!(error instanceof client.ClientError) || error.code !== 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED') return undefined
	const named = (error.cause as { body?: { issuer?: unknown } } | undefined)?.body?.issuer
	return typeof named === 'string' ? named : undefined
}

function discoveryProblem(issuer: string, error: unknown): string {
	const where = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`
	if (error instanceof OutboundError)
		return error.failure === 'timeout'
			? `The identity provider did not answer within 10 seconds (${where})`
			: `The identity provider could not be reached at ${where}`
	const cause = (error as { cause?: unknown })?.cause
	if (cause instanceof OutboundError) return discoveryProblem(issuer, cause)
	const message = error instanceof Error ? error.message : String(error)
	if (/issuer/i.test(message)) return `The discovery document at ${where} names another issuer: enter the issuer URL exactly as the provider gives it`
	if (/status code|response/i.test(message)) return `${where} did not answer with a discovery document (${message})`
	return `The discovery document at ${where} could not be used: ${message}`
}

export interface AuthorizationStart {
	url: string
	state: string
	nonce: string
	codeVerifier: string
}

/** Where to send the browser: authorization code flow with PKCE (S256), `state` and `nonce`. */
export async function authorizationStart(config: client.Configuration, redirectUri: string, loginHint: string): Promise<AuthorizationStart> {
	const codeVerifier = client.randomPKCECodeVerifier()
	const state = client.randomState()
	const nonce = client.randomNonce()
	const url = client.buildAuthorizationUrl(config, {
		redirect_uri: redirectUri,
		scope: 'openid email profile',
		code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
		code_challenge_method: 'S256',
		state,
		nonce,
		login_hint: loginHint,
	})
	return { url: url.href, state, nonce, codeVerifier }
}

export interface IdentityClaims {
	subject: string
	email: string
	emailVerified: boolean | undefined
	name: string | undefined
}

/** Exchanges the code and checks the ID token (signature, issuer, audience, expiry, nonce, state). */
export async function finishAuthorization(
	config: client.Configuration,
	callbackUrl: URL,
	checks: { state: string; nonce: string; codeVerifier: string },
): Promise<IdentityClaims> {
	const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
		expectedState: checks.state,
		expectedNonce: checks.nonce,
		pkceCodeVerifier: checks.codeVerifier,
		idTokenExpected: true,
	})
	const idToken = tokens.claims()
	if (!idToken) throw new SsoProblem('The identity provider sent no ID token')
	// Some providers put the e-mail in the ID token, others (following OpenID Connect's default) only
	// at the UserInfo endpoint, whose answer openid-client checks is about the same subject.
	const claims = typeof idToken.email === 'string' ? idToken : { ...(await client.fetchUserInfo(config, tokens.access_token, idToken.sub)), sub: idToken.sub }
	if (typeof claims.email === 'string')
		return { subject: idToken.sub, email: normalEmail(claims.email), emailVerified: verifiedClaim(claims.email_verified), name: nameOf(claims) }
	// `email_verified` speaks of `email` only: an account name taken instead is vouched for as the provider's own sign-in name.
	return { subject: idToken.sub, email: accountAddress(idToken, claims), emailVerified: undefined, name: nameOf(claims) }
}

const nameOf = (claims: Record<string, unknown>) => (typeof claims.name === 'string' ? claims.name : undefined)

/**
 * The address of a person the provider sent no `email` for, from their account name: `upn` (Microsoft
 * Entra ID and AD FS, when configured), else `preferred_username` (Entra's v2.0 ID token: the user
 * principal name), when it is an e-mail address; else ''. Entra sends no `email` for a person whose
 * mail attribute is empty (no mailbox: a new hire, a contractor), and such a person was told "the
 * identity provider did not send your e-mail address" at every sign-in. Their account name is an
 * address of a domain the firm's tenant verified (a UPN suffix must be one), the issuer is one
 * organisation's own (`requireOneOrganisation`), the address must still be in a domain this
 * workspace verified, and the provider account (`sub`) it came with is linked at the first sign-in.
 */
function accountAddress(idToken: Record<string, unknown>, userInfo: Record<string, unknown>): string {
	for (const claim of ['upn', 'preferred_username'])
		for (const source of [idToken, userInfo]) {
			const value = source[claim]
			if (typeof value === 'string' && isEmailAddress(normalEmail(value))) return normalEmail(value)
		}
	return ''
}

/**
 * `email_verified` as sent: true as a boolean, or (from providers that send claims as text or
 * numbers) "true" in any case, or 1. Absent or null is not said. Anything else is not verified: a
 * string "false" once counted as not said and signed in, and "no", 0 or "unverified" did until they
 * were read as no (a claim we cannot read is never taken as a yes).
 */
function verifiedClaim(value: unknown): boolean | undefined {
	if (value === undefined || value === null) return undefined
	if (typeof value === 'boolean') return value
	if (typeof value === 'string') return value.trim().toLowerCase() === 'true'
	return value === 1
}
