/**
 * Single sign-on (issue 26) against a real OpenID Connect provider (oidc-provider) on a loopback
 * port: owners save the settings (the discovery checked), people sign in with their work e-mail and
 * are created just in time with the configured role; a wrong audience, an expired ID token, a
 * signature by an unknown key, a replayed state, a provider that is down, and an address of another
 * workspace's domain are all refused without a session. Require single sign-on leaves a password to owners only.
 * Starts are limited per client address, and the provider's discovery document is fetched once for a burst of them.
 */
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, count, eq } from 'drizzle-orm'
import { awayFromMinuteEdge, callOn, clock, configProblems, newPerson, newWorkspace, unique } from '../../../tests/helpers.ts'
import { PortalClient, portalApp, signedIn, uniqueAddress } from '../../../tests/portal.ts'
import { startDns, type TestDns } from '../../../tests/sso/dns.ts'
import { verifyByDns } from '../../../tests/sso/domains.ts'
import { DISCOVERY, loginAt, startDiscoveryDocuments, startProvider, type TestProvider } from '../../../tests/sso/provider.ts'
import { personActor } from '../tokens.ts'
import { acceptInvitation, invitePerson } from '../invitations.ts'
import { removePerson } from '../people.ts'
import { signIn } from '../sessions.ts'
import { activity } from '../../activity/table.ts'
import { invitations, memberships, ssoConfigs, ssoDomains, ssoLinks, ssoSignIns, users } from '../table.ts'
import { DISCOVERY_KEPT_MS, discoveryFetch } from './discovery-cache.ts'
import { CLOCK_TOLERANCE_SECONDS, discoveryKey } from './oidc.ts'
import { sealClientSecret } from './secret-box.ts'
import { createScimToken } from './scim-tokens.ts'
import { STARTS_PER_ADDRESS_PER_MINUTE, STARTS_PER_EMAIL_PER_MINUTE } from './sso-sign-in.ts'

setDefaultTimeout(120_000)

/** The app's settings: the test provider is on http://, and domains are checked on the test DNS server. */
let SETTINGS: Record<string, string> = {}
const CALLBACK = 'http://localhost/sign-in/sso/callback'
let provider: TestProvider
let dns: TestDns

beforeAll(async () => {
	// The in-process app's BASE_URL is http://localhost:3000, so its redirect URI is that one.
	provider = await startProvider('http://localhost:3000/sign-in/sso/callback')
	dns = await startDns()
	SETTINGS = { SSO_ALLOW_HTTP: 'on', DNS_SERVERS: dns.server }
})
afterAll(async () => {
	await provider.stop()
	await dns.stop()
})

/** A workspace whose owner saved single sign-on for a new domain of its own, and verified it (its TXT record on the test DNS server). */
async function workspaceWithSso(o: { role?: string; requireSso?: boolean } = {}) {
	const ws = await newWorkspace()
	const owner = await newPerson(ws, 'owner')
	const domain = `${unique('firm')}.example`
	const page = await signedIn(owner, { overrides: SETTINGS })
	await page.get('/settings/sso')
	const saved = await page.submit('/settings/sso', {
		issuer: provider.issuer,
		clientId: provider.clientId,
		clientSecret: provider.clientSecret,
		domains: domain,
		newPersonRole: o.role ?? 'recruiter',
		...(o.requireSso ? { requireSso: 'on' } : {}),
	})
	expect(saved.redirectedTo).toBe('/settings/sso?done=saved')
	expect((await verifyByDns(page, dns, domain)).redirectedTo).toBe('/settings/sso?done=domain-verified#domain-verification')
	return { ws, owner, domain, page }
}

/**
 * A browser that signs in with SSO as `email`; returns the callback's answer and the client. At the
 * provider it logs in as `login` (`email#2`: another account there with the same address).
 */
async function ssoSignIn(email: string, login = email) {
	const tab = await ssoSignInUntilCallback(email, login)
	if (!tab.back) return { ...tab, callback: null }
	return { ...tab, callback: await tab.client.get(tab.back) }
}

/** The same up to the provider's redirect back: the callback address, not yet opened. */
async function ssoSignInUntilCallback(email: string, login = email) {
	const { app } = await portalApp(SETTINGS)
	const client = new PortalClient(app, { address: uniqueAddress() })
	await client.get('/sign-in/sso')
	const started = await client.post('/sign-in/sso', { email, next: '/portal' })
	if (started.status !== 303) return { client, started, back: null }
	const back = await loginAt(started.headers.get('location')!, login, 'http://localhost:3000/sign-in/sso/callback')
	return { client, started, back: new URL(back).pathname + new URL(back).search }
}

describe('owners set it up at /settings/sso', () => {
	test('saving reads the discovery document; a wrong issuer says what is wrong and saves nothing; the secret is never shown', async () => {
		const { page } = await workspaceWithSso()
		const shown = await page.get('/settings/sso')
		expect(shown.text).toContain(provider.issuer)
		expect(shown.text).not.toContain(provider.clientSecret)
		const wrong = await page.submit('/settings/sso', {
			issuer: `${provider.issuer}/nowhere`,
			clientId: 'x',
			clientSecret: 'another-secret',
			domains: 'elsewhere.example',
			newPersonRole: 'viewer',
		})
		expect(wrong.status).toBe(422)
		expect(wrong.text).toContain('/nowhere/.well-known/openid-configuration')
		expect((await page.get('/settings/sso')).text).not.toContain('elsewhere.example')
	})

	test('the saved secret is kept only for the issuer and client ID it was given for: change either and it must be typed again', async () => {
		const { page, domain } = await workspaceWithSso()
		const form = { issuer: provider.issuer, clientId: provider.clientId, clientSecret: '', domains: domain, newPersonRole: 'recruiter' }
		// Were it kept, the next sign-in would send it to the new issuer's token endpoint (whoever runs it).
		for (const changed of [{ issuer: `${provider.issuer}/elsewhere` }, { clientId: 'another-client' }]) {
			const refused = await page.submit('/settings/sso', { ...form, ...changed })
			expect(refused.status).toBe(422)
			expect(refused.text).toContain('Type the client secret again')
		}
		expect((await page.get('/settings/sso')).text).not.toContain('/elsewhere')
		expect((await page.submit('/settings/sso', form)).redirectedTo).toBe('/settings/sso?done=saved')
	})

	test('an issuer typed with or without the trailing slash its provider writes is that issuer, saved as the provider writes it (its ID tokens’ iss); another issuer is still refused', async () => {
		const documents = await startDiscoveryDocuments((base) => ({ '/okta': `${base}/okta`, '/auth0': `${base}/auth0/`, '/moved': `${base}/elsewhere` }))
		try {
			const ws = await newWorkspace()
			const page = await signedIn(await newPerson(ws, 'owner'), { overrides: SETTINGS })
			const { deps } = await portalApp(SETTINGS)
			const savedIssuer = async () => (await deps.db.select({ issuer: ssoConfigs.issuer }).from(ssoConfigs).where(eq(ssoConfigs.workspaceId, ws.id)))[0]?.issuer
			const form = { clientId: 'benchline', clientSecret: 'a-secret', domains: `${unique('d')}.example`, newPersonRole: 'recruiter' }
			await page.get('/settings/sso')
			for (const [typed, kept] of [
				[`${documents.base}/okta/`, `${documents.base}/okta`],
				[`${documents.base}/auth0`, `${documents.base}/auth0/`],
			]) {
				expect((await page.submit('/settings/sso', { ...form, issuer: typed! })).redirectedTo).toBe('/settings/sso?done=saved')
				expect(await savedIssuer()).toBe(kept)
			}
			// Typed again the other way, with the secret left blank: the same issuer, so the saved secret stays.
			expect((await page.submit('/settings/sso', { ...form, clientSecret: '', issuer: `${documents.base}/auth0` })).redirectedTo).toBe(
				'/settings/sso?done=saved',
			)
			const other = await page.submit('/settings/sso', { ...form, issuer: `${documents.base}/moved` })
			expect(other.status).toBe(422)
			expect(other.text).toContain('names another issuer')
			expect(await savedIssuer()).toBe(`${documents.base}/auth0/`)
		} finally {
			await documents.stop()
		}
	})

	test('a domain another workspace’s single sign-on covers is refused', async () => {
		const { domain } = await workspaceWithSso()
		const other = await newWorkspace()
		const page = await signedIn(await newPerson(other, 'owner'), { overrides: SETTINGS })
		await page.get('/settings/sso')
		const refused = await page.submit('/settings/sso', {
			issuer: provider.issuer,
			clientId: provider.clientId,
			clientSecret: provider.clientSecret,
			domains: domain,
			newPersonRole: 'recruiter',
		})
		expect(refused.status).toBe(422)
		expect(refused.text).toContain('Another workspace’s single sign-on covers')
	})

	test('SSO_ALLOW_HTTP is refused in production; without it an http:// issuer is refused', async () => {
		expect(configProblems({ SSO_ALLOW_HTTP: 'on', NODE_ENV: 'production', BASE_URL: 'https://bench.example' }).join(' ')).toContain('SSO_ALLOW_HTTP')
		const ws = await newWorkspace()
		const page = await signedIn(await newPerson(ws, 'owner'))
		await page.get('/settings/sso')
		const refused = await page.submit('/settings/sso', {
			issuer: provider.issuer,
			clientId: provider.clientId,
			clientSecret: provider.clientSecret,
			domains: `${unique('d')}.example`,
			newPersonRole: 'recruiter',
		})
		expect(refused.status).toBe(422)
		expect(refused.text).toContain('must start with https://')
	})
})

describe('Sign in with SSO', () => {
	test('two first sign-ins of a new address at once (two tabs): both signed in as the one same person; one account, one membership, one link, one join', async () => {
		const { ws, domain } = await workspaceWithSso()
		const { deps } = await portalApp(SETTINGS)
		// Several pairs: each pair's two callbacks run their transactions at the same moment (on PostgreSQL; PGlite runs them one by one).
		for (let pair = 0; pair < 4; pair++) {
			const email = `dana.${unique('twin')}@${domain}`
			const tabs = await Promise.all([ssoSignInUntilCallback(email), ssoSignInUntilCallback(email)])
			const answers = await Promise.all(tabs.map((tab) => tab.client.get(tab.back!)))
			expect(answers.map((a) => [a.status, a.headers.get('location')])).toEqual([
				[303, '/portal'],
				[303, '/portal'],
			])
			for (const tab of tabs) expect((await tab.client.get('/portal')).status).toBe(200)
			const accounts = await deps.db.select({ id: users.id }).from(users).where(eq(users.email, email))
			expect(accounts).toHaveLength(1)
			const userId = accounts[0]!.id
			const inWorkspace = and(eq(memberships.workspaceId, ws.id), eq(memberships.userId, userId))
			expect(await deps.db.select().from(memberships).where(inWorkspace)).toHaveLength(1)
			expect(
				await deps.db
					.select()
					.from(ssoLinks)
					.where(and(eq(ssoLinks.workspaceId, ws.id), eq(ssoLinks.userId, userId))),
			).toHaveLength(1)
			const joins = await deps.db
				.select({ action: activity.action })
				.from(activity)
				.where(and(eq(activity.workspaceId, ws.id), eq(activity.targetId, userId), eq(activity.action, 'person.joined_by_sso')))
			expect(joins).toHaveLength(1)
		}
	})

	test('the sign-in page offers it; a first sign-in creates the person with the configured role and opens the portal', async () => {
		const { app } = await portalApp(SETTINGS)
		expect((await new PortalClient(app).get('/sign-in')).text).toContain('Sign in with SSO')
		const { ws, domain } = await workspaceWithSso({ role: 'hiring_manager' })
		const email = `dana.${unique('p')}@${domain}`
		const { client, started, callback } = await ssoSignIn(email)
		// Sent to the provider with PKCE, state and nonce.
		const to = new URL(started.headers.get('location')!)
		expect(to.origin).toBe(provider.issuer)
		expect(to.searchParams.get('code_challenge_method')).toBe('S256')
		for (const p of ['code_challenge', 'state', 'nonce']) expect(to.searchParams.get(p)).toBeTruthy()
		expect(callback!.status).toBe(303)
		expect(callback!.headers.get('location')).toBe('/portal')
		expect((await client.get('/portal')).status).toBe(200)
		const [person] = await (await portalApp(SETTINGS)).deps.db.select({ id: users.id }).from(users).where(eq(users.email, email))
		const [membership] = await (await portalApp(SETTINGS)).deps.db
			.select({ role: memberships.role })
			.from(memberships)
			.where(and(eq(memberships.workspaceId, ws.id), eq(memberships.userId, person!.id)))
		expect(membership!.role).toBe('hiring_manager')
		// A second sign-in finds the same person.
		expect((await ssoSignIn(email)).callback!.status).toBe(303)
	})

	for (const [tamper, what] of [
		['wrong-audience', 'an ID token for another application'],
		['wrong-issuer', 'an ID token from another issuer'],
		['wrong-nonce', 'an ID token with the nonce of another sign-in'],
		['expired', 'an expired ID token'],
		['foreign-key', 'an ID token signed with a key the provider never published'],
	] as const)
		test(`refuses ${what}: no session`, async () => {
			const { domain } = await workspaceWithSso()
			provider.tamper = tamper
			try {
				const { client, callback } = await ssoSignIn(`p.${unique('x')}@${domain}`)
				expect(callback!.status).toBe(422)
				expect(callback!.text).toContain('could not be verified')
				expect((await client.get('/portal')).status).toBe(303)
			} finally {
				provider.tamper = 'none'
			}
		})

	test('a provider whose clock runs ahead of ours (its nbf in our future) is read with five minutes of tolerance, not more', async () => {
		const { domain } = await workspaceWithSso()
		provider.tamper = 'clock-ahead'
		try {
			for (const [ahead, status] of [
				[45, 303],
				[CLOCK_TOLERANCE_SECONDS - 20, 303],
				[CLOCK_TOLERANCE_SECONDS + 60, 422],
			] as const) {
				provider.clockAhead = ahead
				const { client, callback } = await ssoSignIn(`c.${unique('x')}@${domain}`)
				expect({ ahead, status: callback!.status }).toEqual({ ahead, status })
				expect((await client.get('/portal')).status).toBe(status === 303 ? 200 : 303)
			}
		} finally {
			provider.tamper = 'none'
			provider.clockAhead = 0
		}
	})

	test('a provider’s claims are outside text: "false" as a string is not verified; a name is cleaned and cut by characters, never refused', async () => {
		const { domain } = await workspaceWithSso()
		const db = (await portalApp(SETTINGS)).deps.db
		try {
			// Any value but a yes is a no: "False", "no", 0, "unverified"; only absent (or null) is not said.
			for (const claim of ['False', 'no', 0, 'unverified', '']) {
				provider.claims = { email_verified: claim }
				const unverified = await ssoSignIn(`u.${unique('x')}@${domain}`)
				expect({ claim, status: unverified.callback!.status }).toEqual({ claim, status: 422 })
				expect(unverified.callback!.text).toContain('not verified')
			}
			for (const claim of ['TRUE', 1, null]) {
				provider.claims = { email_verified: claim }
				expect({ claim, status: (await ssoSignIn(`v.${unique('x')}@${domain}`)).callback!.status }).toEqual({ claim, status: 303 })
			}
			for (const [name, stored] of [
				['Bad\u0000Name\u202e', 'BadName'],
				[`${'A'.repeat(119)}😀 and more`, `${'A'.repeat(119)}…`],
				['\u0000\u200b', null],
			] as const) {
				provider.claims = { name }
				const email = `n.${unique('x')}@${domain}`
				expect((await ssoSignIn(email)).callback!.status).toBe(303)
				const [person] = await db.select({ name: users.name }).from(users).where(eq(users.email, email))
				expect(person!.name).toBe(stored ?? email.slice(0, email.indexOf('@')))
			}
		} finally {
			provider.claims = {}
		}
	})

	test('no email claim (Entra, a person without a mailbox): the account name, upn or preferred_username, when it is an address; email first when sent', async () => {
		const { domain } = await workspaceWithSso()
		const db = (await portalApp(SETTINGS)).deps.db
		const signedInAs = async ({ expect: address, ...claims }: Record<string, unknown>) => {
			provider.claims = claims
			const { client, callback } = await ssoSignIn(`login.${unique('l')}@${domain}`)
			if (callback!.status !== 303) return { status: callback!.status, text: callback!.text }
			const [person] = await db
				.select({ email: users.email })
				.from(users)
				.where(eq(users.email, String(address)))
			return { status: (await client.get('/portal')).status, email: person?.email }
		}
		try {
			const upn = `Upn.${unique('u')}@${domain.toUpperCase()}`
			expect(await signedInAs({ email: undefined, upn, preferred_username: `other.${unique('p')}@${domain}`, expect: upn.toLowerCase() })).toEqual({
				status: 200,
				email: upn.toLowerCase(),
			})
			const preferred = `pref.${unique('p')}@${domain}`
			expect(await signedInAs({ email: undefined, preferred_username: preferred, expect: preferred })).toEqual({ status: 200, email: preferred })
			const sent = `mail.${unique('m')}@${domain}`
			expect(await signedInAs({ email: sent, preferred_username: `pref.${unique('p')}@${domain}`, expect: sent })).toEqual({ status: 200, email: sent })
			// An account name that is no address, or of a domain this workspace does not cover, signs no one in.
			const bare = await signedInAs({ email: undefined, preferred_username: 'dana' })
			expect(bare).toMatchObject({ status: 422, text: expect.stringContaining('did not send your e-mail address') })
			const elsewhere = await signedInAs({ email: undefined, preferred_username: `guest.${unique('g')}@elsewhere.example` })
			expect(elsewhere).toMatchObject({ status: 422, text: expect.stringContaining('is not in a domain this workspace') })
		} finally {
			provider.claims = {}
		}
	})

	test('an ID token whose address is another workspace’s domain is never attached here', async () => {
		const { domain } = await workspaceWithSso()
		const other = await workspaceWithSso()
		provider.tamper = 'other-email'
		provider.otherEmail = `x.${unique('o')}@${other.domain}`
		try {
			const { client, callback } = await ssoSignIn(`p.${unique('x')}@${domain}`)
			expect(callback!.status).toBe(422)
			expect(callback!.text).toContain('is not in a domain this workspace')
			expect((await client.get('/portal')).status).toBe(303)
			const db = (await portalApp(SETTINGS)).deps.db
			expect(await db.select().from(users).where(eq(users.email, provider.otherEmail))).toEqual([])
		} finally {
			provider.tamper = 'none'
		}
	})

	test('a replayed state is refused (the callback is used once), and a state from another browser too', async () => {
		const { domain } = await workspaceWithSso()
		const { client, back, callback } = await ssoSignIn(`p.${unique('x')}@${domain}`)
		expect(callback!.status).toBe(303)
		const replayed = await client.get(back!)
		expect(replayed.status).toBe(422)
		// Another browser (no state cookie) with a fresh callback address.
		const second = await ssoSignIn(`q.${unique('x')}@${domain}`)
		expect(second.callback!.status).toBe(303)
		const { app } = await portalApp(SETTINGS)
		const stranger = new PortalClient(app, { address: uniqueAddress() })
		expect((await stranger.get(second.back!)).status).toBe(422)
	})

	test('sign-ins started in several tabs of one browser each finish, in any order; the newest five are kept, and each state is still used once', async () => {
		const { domain } = await workspaceWithSso()
		const { app } = await portalApp(SETTINGS)
		const browser = new PortalClient(app, { address: uniqueAddress() })
		await browser.get('/sign-in/sso')
		/** A tab: a start in this browser, through the provider's login, up to its way back. */
		const tab = async (email: string) => {
			const started = await browser.post('/sign-in/sso', { email, next: '/portal' })
			expect(started.status).toBe(303)
			const back = new URL(await loginAt(started.headers.get('location')!, email, 'http://localhost:3000/sign-in/sso/callback'))
			return back.pathname + back.search
		}
		const email = `tabs.${unique('t')}@${domain}`
		const [first, second, third] = [await tab(email), await tab(email), await tab(email)]
		// The second tab finishes first, then the first: both signed in; the third still can.
		for (const back of [second, first, third]) expect((await browser.get(back)).headers.get('location')).toBe('/portal')
		expect((await browser.get(first)).status).toBe(422)
		// Six tabs: the oldest state has left the cookie, the five newest finish.
		const six = []
		for (let i = 0; i < 6; i++) six.push(await tab(email))
		expect((await browser.get(six[0]!)).status).toBe(422)
		for (const back of six.slice(1)) expect((await browser.get(back)).status).toBe(303)
	})

	test('the provider sending the person back with an error (access_denied: not assigned, or cancelled) shows what to do, with no session; its description goes to the log only', async () => {
		const { domain } = await workspaceWithSso()
		for (const [error, says] of [
			['access_denied', 'you are not assigned to the Benchline app there'],
			['login_required', 'needs you to sign in there first (login_required)'],
			['temporarily_unavailable', 'could not sign you in just now'],
			['<b>Call 555-0100</b>', 'refused the sign-in (an error)'],
		] as const) {
			const { app } = await portalApp(SETTINGS)
			const client = new PortalClient(app, { address: uniqueAddress() })
			await client.get('/sign-in/sso')
			const started = await client.post('/sign-in/sso', { email: `d.${unique('x')}@${domain}`, next: '/portal' })
			const state = new URL(started.headers.get('location')!).searchParams.get('state')!
			const back = await client.get(`/sign-in/sso/callback?${new URLSearchParams({ error, error_description: 'AADSTS50105: not assigned', state })}`)
			expect({ error, status: back.status }).toEqual({ error, status: 422 })
			expect(back.text).toContain(says)
			expect(back.text).not.toContain('AADSTS50105')
			expect(back.text).not.toContain('555-0100')
			expect((await client.get('/portal')).status).toBe(303)
		}
	})

	test('an Entra issuer for every organisation (common, organizations: {tenantid}) is refused, even saved before: any tenant could send an address of the firm’s domain', async () => {
		const { deps, app } = await portalApp(SETTINGS)
		const ws = await newWorkspace()
		const domain = `${unique('entra')}.example`
		const issuer = 'https://login.microsoftonline.com/organizations/v2.0'
		await deps.db
			.insert(ssoConfigs)
			.values({ workspaceId: ws.id, issuer, clientId: 'app-id', clientSecretSealed: await sealClientSecret(deps.secret, ws.id, 's') })
		await deps.db.insert(ssoDomains).values({ domain, workspaceId: ws.id })
		// Microsoft's document for it, as the provider serves it (kept as a sign-in had just fetched it: no network here).
		const document = {
			issuer: 'https://login.microsoftonline.com/{tenantid}/v2.0',
			authorization_endpoint: 'https://login.microsoftonline.com/organizations/oauth2/v2.0/authorize',
			token_endpoint: 'https://login.microsoftonline.com/organizations/oauth2/v2.0/token',
			jwks_uri: 'https://login.microsoftonline.com/organizations/discovery/v2.0/keys',
			response_types_supported: ['code', 'id_token', 'code id_token', 'id_token token'],
			subject_types_supported: ['pairwise'],
			id_token_signing_alg_values_supported: ['RS256'],
		}
		const fetcher = async () => Response.json(document)
		await discoveryFetch(discoveryKey(deps, issuer), { now: deps.now().getTime(), fresh: false, fetcher }).fetch(
			`${issuer}/.well-known/openid-configuration`,
			{} as never,
		)
		const client = new PortalClient(app, { address: uniqueAddress() })
		await client.get('/sign-in/sso')
		const refused = await client.post('/sign-in/sso', { email: `ceo@${domain}`, next: '/portal' })
		expect(refused.status).toBe(422)
		expect(refused.text).toContain('takes sign-ins from every Microsoft Entra organisation')
		expect(await deps.db.select().from(ssoSignIns).where(eq(ssoSignIns.workspaceId, ws.id))).toEqual([])
	})

	test('an address no single sign-on covers, and a provider that is down, say so', async () => {
		const { app } = await portalApp(SETTINGS)
		const client = new PortalClient(app, { address: uniqueAddress() })
		await client.get('/sign-in/sso')
		const none = await client.post('/sign-in/sso', { email: `a@${unique('n')}.example`, next: '/portal' })
		expect(none.status).toBe(422)
		expect(none.text).toContain('No single sign-on is set up for')

		const down = await startProvider(CALLBACK)
		const ws = await newWorkspace()
		const page = await signedIn(await newPerson(ws, 'owner'), { overrides: SETTINGS })
		await page.get('/settings/sso')
		const domain = `${unique('down')}.example`
		await page.submit('/settings/sso', {
			issuer: down.issuer,
			clientId: down.clientId,
			clientSecret: down.clientSecret,
			domains: domain,
			newPersonRole: 'recruiter',
		})
		expect((await verifyByDns(page, dns, domain)).redirectedTo).toBe('/settings/sso?done=domain-verified#domain-verification')
		await down.stop()
		await client.get('/sign-in/sso')
		const refused = await client.post('/sign-in/sso', { email: `a@${domain}`, next: '/portal' })
		expect(refused.status).toBe(422)
		expect(refused.text).toContain('could not be reached')
	})

	test('the provider’s account (sub) is kept at the first sign-in: another account with the same address is refused until an owner forgets the first; another issuer links anew', async () => {
		const { ws, domain, page } = await workspaceWithSso()
		const email = `leaver.${unique('p')}@${domain}`
		expect((await ssoSignIn(email)).callback!.status).toBe(303)
		const { deps } = await portalApp(SETTINGS)
		const [link] = await deps.db.select().from(ssoLinks).where(eq(ssoLinks.workspaceId, ws.id)).innerJoin(users, eq(users.id, ssoLinks.userId))
		expect([link!.sso_links.issuer, link!.sso_links.subject, link!.users.email]).toEqual([provider.issuer, email, email])
		expect((await ssoSignIn(email)).callback!.status).toBe(303)

		// The provider gave the address to another account: it does not open the first one's.
		const reused = await ssoSignIn(email, `${email}#2`)
		expect(reused.callback!.status).toBe(422)
		expect(reused.callback!.text).toContain('signed in here before with another account at your identity provider')
		expect((await reused.client.get('/portal')).status).toBe(303)

		// An owner forgets the first account (the provider re-created it on purpose): the next one is linked.
		await page.get('/settings/sso')
		const unknown = await page.submit('/settings/sso/provider-accounts/forget', { email: `nobody.${unique('n')}@${domain}` })
		expect(unknown.status).toBe(422)
		expect(unknown.text).toContain('signed in here with single sign-on')
		const forgot = await page.submit('/settings/sso/provider-accounts/forget', { email })
		expect(forgot.redirectedTo).toBe('/settings/sso?done=provider-account-forgotten#provider-accounts')
		expect((await ssoSignIn(email, `${email}#2`)).callback!.status).toBe(303)
		expect((await ssoSignIn(email)).callback!.status).toBe(422)

		// The owner moves to another provider: its accounts link at their first sign-in there.
		const next = await startProvider('http://localhost:3000/sign-in/sso/callback')
		try {
			await page.get('/settings/sso')
			const moved = await page.submit('/settings/sso', {
				issuer: next.issuer,
				clientId: next.clientId,
				clientSecret: next.clientSecret,
				domains: domain,
				newPersonRole: 'recruiter',
			})
			expect(moved.redirectedTo).toBe('/settings/sso?done=saved')
			expect((await ssoSignIn(email, `${email}#3`)).callback!.status).toBe(303)
		} finally {
			await next.stop()
		}
	})

	test('a provider account linked to one person opens no one else’s account: its address changed to a colleague’s who has not signed in with SSO yet is refused, until an owner forgets its first link', async () => {
		const { ws, domain, page } = await workspaceWithSso()
		const bob = `bob.${unique('p')}@${domain}`
		const alice = `alice.${unique('p')}@${domain}`
		expect((await ssoSignIn(bob)).callback!.status).toBe(303)
		// Alice is an admin here who has never signed in with single sign-on (invited, or provisioned by SCIM).
		const { deps } = await portalApp(SETTINGS)
		const colleague = await newPerson(ws, 'admin')
		await deps.db.update(users).set({ email: alice }).where(eq(users.email, colleague.email))
		const linksOf = async () =>
			(
				await deps.db
					.select({ subject: ssoLinks.subject, email: users.email })
					.from(ssoLinks)
					.innerJoin(users, eq(users.id, ssoLinks.userId))
					.where(eq(ssoLinks.workspaceId, ws.id))
			).map((l) => `${l.email} ${l.subject}`)

		// Bob's account at the provider now says Alice's address.
		provider.tamper = 'other-email'
		provider.otherEmail = alice
		try {
			const taken = await ssoSignIn(alice, bob)
			expect(taken.callback!.status).toBe(422)
			expect(taken.callback!.text).toContain('is linked to another Benchline account here')
			expect((await taken.client.get('/portal')).status).toBe(303)
			expect(await linksOf()).toEqual([`${bob} ${bob}`])

			// An owner forgets Bob's link (the provider really moved that account to the address): it links to Alice's account then.
			await page.get('/settings/sso')
			expect((await page.submit('/settings/sso/provider-accounts/forget', { email: bob })).redirectedTo).toBe(
				'/settings/sso?done=provider-account-forgotten#provider-accounts',
			)
			expect((await ssoSignIn(alice, bob)).callback!.status).toBe(303)
			expect(await linksOf()).toEqual([`${alice} ${bob}`])
		} finally {
			provider.tamper = 'none'
		}
	})

	test('a person whose address changed at the provider (same provider account, an address no account has) is signed in to their own account, which takes the new address; held in another workspace, it keeps its own', async () => {
		const { ws, domain } = await workspaceWithSso()
		const { deps } = await portalApp(SETTINGS)
		const before = `jane.doe.${unique('p')}@${domain}`
		const after = `jane.smith.${unique('p')}@${domain}`
		expect((await ssoSignIn(before)).callback!.status).toBe(303)
		const [jane] = await deps.db.select({ id: users.id }).from(users).where(eq(users.email, before))
		const linkOf = async (userId: string) =>
			(
				await deps.db
					.select()
					.from(ssoLinks)
					.where(and(eq(ssoLinks.workspaceId, ws.id), eq(ssoLinks.userId, userId)))
			)[0]

		// The provider account that signed in as `before` (its sub is that login) now says `after`.
		provider.tamper = 'other-email'
		provider.otherEmail = after
		try {
			const moved = await ssoSignIn(after, before)
			expect(moved.callback!.status).toBe(303)
			expect((await moved.client.get('/portal')).status).toBe(200)
			expect(await deps.db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, jane!.id))).toEqual([{ id: jane!.id, email: after }])
			expect(await deps.db.select().from(users).where(eq(users.email, before))).toEqual([])
			expect((await linkOf(jane!.id))!.subject).toBe(before)
			const lines = await deps.db
				.select({ detail: activity.detail })
				.from(activity)
				.where(and(eq(activity.workspaceId, ws.id), eq(activity.targetId, jane!.id), eq(activity.action, 'person.details_changed')))
			expect(lines.map((l) => l.detail)).toEqual([{ email: after, previousEmail: before }])
			// And the next sign-in with it finds her by it.
			expect((await ssoSignIn(after, before)).callback!.status).toBe(303)

			// Someone also in another workspace: the address is their sign-in there too, so it stays; they are signed in all the same.
			const shared = `sam.${unique('p')}@${domain}`
			provider.tamper = 'none'
			expect((await ssoSignIn(shared)).callback!.status).toBe(303)
			const [sam] = await deps.db.select({ id: users.id }).from(users).where(eq(users.email, shared))
			const elsewhere = await newWorkspace()
			await deps.db.insert(memberships).values({ workspaceId: elsewhere.id, userId: sam!.id, role: 'viewer' })
			provider.tamper = 'other-email'
			provider.otherEmail = `sam.renamed.${unique('p')}@${domain}`
			const kept = await ssoSignIn(provider.otherEmail, shared)
			expect(kept.callback!.status).toBe(303)
			expect((await kept.client.get('/portal')).status).toBe(200)
			expect((await deps.db.select({ email: users.email }).from(users).where(eq(users.id, sam!.id)))[0]!.email).toBe(shared)
			expect(await deps.db.select().from(users).where(eq(users.email, provider.otherEmail))).toEqual([])
		} finally {
			provider.tamper = 'none'
		}
	})

	test('the issuer re-saved with a trailing slash keeps its saved spelling: the provider accounts linked under it stay linked, and another account for a linked address is still refused', async () => {
		const { ws, domain, page } = await workspaceWithSso()
		const email = `kept.${unique('p')}@${domain}`
		expect((await ssoSignIn(email)).callback!.status).toBe(303)
		const { deps } = await portalApp(SETTINGS)
		await page.get('/settings/sso')
		for (const spelling of [`${provider.issuer}/`, `${provider.issuer.replace('http://', 'HTTP://')}/`]) {
			const resaved = await page.submit('/settings/sso', {
				issuer: spelling,
				clientId: provider.clientId,
				clientSecret: '',
				domains: domain,
				newPersonRole: 'recruiter',
			})
			expect(resaved.redirectedTo).toBe('/settings/sso?done=saved')
			expect((await deps.db.select({ issuer: ssoConfigs.issuer }).from(ssoConfigs).where(eq(ssoConfigs.workspaceId, ws.id)))[0]!.issuer).toBe(provider.issuer)
		}
		const reused = await ssoSignIn(email, `${email}#2`)
		expect(reused.callback!.status).toBe(422)
		expect(reused.callback!.text).toContain('signed in here before with another account at your identity provider')
		expect((await ssoSignIn(email)).callback!.status).toBe(303)
	})

	test('Require single sign-on: only owners keep a password there', async () => {
		const { ws } = await workspaceWithSso({ requireSso: true })
		const recruiter = await newPerson(ws, 'recruiter')
		expect((await signedIn(recruiter).catch((e: Error) => e)) instanceof Error).toBe(true)
		const owner = await newPerson(ws, 'owner')
		expect((await (await signedIn(owner)).get('/portal')).status).toBe(200)
	})
})

describe('starting a sign-in is bounded: anyone may start one, and a start fetches and stores', () => {
	const discoveries = () => provider.requests.filter((line) => line === DISCOVERY).length
	/** One start from a browser of its own (its own client address, unless given). */
	async function start(email: string, client?: PortalClient) {
		const browser = client ?? new PortalClient((await portalApp(SETTINGS)).app, { address: uniqueAddress() })
		await browser.get('/sign-in/sso')
		return browser.post('/sign-in/sso', { email, next: '/portal' })
	}

	test('starts a minute are bounded per client address and per e-mail address: past either, 429 with Retry-After and the wait, nothing fetched or stored; others go on', async () => {
		const { ws, domain, page } = await workspaceWithSso()
		const { app, deps } = await portalApp(SETTINGS)
		const office = new PortalClient(app, { address: uniqueAddress() })
		const stored = async () => (await deps.db.select({ n: count() }).from(ssoSignIns).where(eq(ssoSignIns.workspaceId, ws.id)))[0]!.n
		await awayFromMinuteEdge()
		// An office: many people, one address; each one's start goes through up to the address's bound.
		for (let i = 0; i < STARTS_PER_ADDRESS_PER_MINUTE; i++) expect((await start(`p${i}.${unique('x')}@${domain}`, office)).status).toBe(303)
		expect(await stored()).toBe(STARTS_PER_ADDRESS_PER_MINUTE)
		// Saved again, the settings drop the document kept for sign-ins: a start let through would fetch it.
		await page.get('/settings/sso')
		const form = { issuer: provider.issuer, clientId: provider.clientId, clientSecret: '', domains: domain, newPersonRole: 'recruiter' }
		expect((await page.submit('/settings/sso', form)).redirectedTo).toBe('/settings/sso?done=saved')
		const fetched = discoveries()
		const refused = await start(`late.${unique('x')}@${domain}`, office)
		expect(refused.status).toBe(429)
		const wait = Number(refused.headers.get('retry-after'))
		expect(wait).toBeGreaterThanOrEqual(1)
		expect(wait).toBeLessThanOrEqual(60)
		expect(refused.text).toContain('Too many sign-ins with SSO from your address.')
		expect(refused.text).toContain(wait === 60 ? 'Wait 1 minute, then try again.' : `Wait ${wait} second${wait === 1 ? '' : 's'}, then try again.`)
		expect(discoveries()).toBe(fetched)
		expect(await stored()).toBe(STARTS_PER_ADDRESS_PER_MINUTE)
		// One person, from many addresses: their own bound.
		const person = `r.${unique('x')}@${domain}`
		for (let i = 0; i < STARTS_PER_EMAIL_PER_MINUTE; i++) expect((await start(person)).status).toBe(303)
		const again = await start(person)
		expect(again.status).toBe(429)
		expect(again.text).toContain('Too many sign-ins with SSO for this e-mail address.')
		expect(await stored()).toBe(STARTS_PER_ADDRESS_PER_MINUTE + STARTS_PER_EMAIL_PER_MINUTE)
		// Someone else, from another address, goes on.
		expect((await start(`q.${unique('x')}@${domain}`)).status).toBe(303)
	})

	test('the discovery document is fetched once for a burst of starts (at once, or one after another) and their callbacks, and again after 5 minutes', async () => {
		const { domain } = await workspaceWithSso()
		const fetched = discoveries()
		const atOnce = await Promise.all(Array.from({ length: 5 }, (_, i) => start(`b${i}.${unique('x')}@${domain}`)))
		expect(atOnce.map((answer) => answer.status)).toEqual([303, 303, 303, 303, 303])
		for (let i = 0; i < 5; i++) expect((await start(`s${i}.${unique('x')}@${domain}`)).status).toBe(303)
		expect((await ssoSignIn(`c.${unique('x')}@${domain}`)).callback!.status).toBe(303)
		expect(discoveries() - fetched).toBe(1)
		clock.advance(DISCOVERY_KEPT_MS + 1000)
		try {
			expect((await start(`l.${unique('x')}@${domain}`)).status).toBe(303)
			expect((await start(`m.${unique('x')}@${domain}`)).status).toBe(303)
		} finally {
			clock.reset()
		}
		expect(discoveries() - fetched).toBe(2)
	})

	test('a discovery that failed is not kept as a success: each start asks the provider again until it answers', async () => {
		const { domain } = await workspaceWithSso()
		const fetched = discoveries()
		provider.discoveryDown = true
		try {
			for (let i = 0; i < 2; i++) {
				const refused = await start(`d${i}.${unique('x')}@${domain}`)
				expect(refused.status).toBe(422)
				expect(refused.text).toContain('did not answer with a discovery document')
			}
		} finally {
			provider.discoveryDown = false
		}
		expect(discoveries() - fetched).toBe(2)
		expect((await start(`u.${unique('x')}@${domain}`)).status).toBe(303)
		expect((await start(`v.${unique('x')}@${domain}`)).status).toBe(303)
		expect(discoveries() - fetched).toBe(3)
	})
})

describe('a session single sign-on opened reaches its own workspace only', () => {
	/**
	 * Whoever owns a workspace chooses its provider and the domains it covers, so its provider can
	 * vouch for anyone in them, a person of another firm included. The session it opens must not be
	 * a way into the person's other workspaces.
	 */
	test('another firm’s owner whose provider vouches for a person gets no switch, no invitation and no session of theirs elsewhere', async () => {
		const { ws: theirs, domain } = await workspaceWithSso()
		// The person is also the owner of a workspace of their own, signed in there with their password.
		const own = await newWorkspace()
		const person = await newPerson(own, 'owner')
		const email = `ceo.${unique('p')}@${domain}`
		const deps = (await portalApp(SETTINGS)).deps
		await deps.db.update(users).set({ email }).where(eq(users.email, person.email))
		const withPassword = await signedIn({ email, password: person.password }, { workspace: own.slug })
		const elsewhere = await newWorkspace()
		// An invitation from a third workspace, sent before the domain came under this single sign-on (none can be sent now).
		const invitationId = `inv_${unique()}`
		await deps.db
			.insert(invitations)
			.values({ id: invitationId, workspaceId: elsewhere.id, email, name: 'The CEO', role: 'admin', expiresAt: new Date(Date.now() + 86_400_000) })

		const { client, callback } = await ssoSignIn(email)
		expect(callback!.status).toBe(303)
		const home = await client.get('/portal')
		expect(home.text).toContain(theirs.slug)
		expect(home.text).not.toContain(`value="${own.slug}"`)
		expect(home.text).not.toContain('invitation to another workspace')
		const switched = await client.post('/portal/switch-workspace', { workspace: own.slug, next: '/portal' })
		expect(switched.status).toBe(403)
		expect(switched.text).toContain(`single sign-on of ${theirs.slug}`)
		// The invitation to a third workspace is neither listed nor answered from here.
		expect((await client.get('/invitations')).text).not.toContain(elsewhere.name)
		for (const answer of ['accept', 'decline']) {
			const refused = await client.post(`/invitations/${invitationId}/${answer}`)
			expect([refused.status, refused.text.includes(`single sign-on of ${theirs.slug}`)]).toEqual([422, true])
		}
		// Their sessions in their own workspace are neither listed nor ended from here.
		const security = await client.get('/settings/security')
		expect(security.text).not.toContain(own.slug)
		await client.post('/settings/security/sign-out-others')
		expect((await withPassword.get('/portal')).status).toBe(200)

		// With their password the same person still reaches both, and answers the invitation.
		const home2 = await withPassword.get('/portal')
		expect(home2.text).toContain(`value="${theirs.slug}"`)
		expect(home2.text).toContain('invitation to another workspace')
		expect((await withPassword.get('/settings/security')).text).toContain(theirs.slug)
		expect((await withPassword.submit('/portal/switch-workspace', { workspace: theirs.slug, next: '/portal' })).redirectedTo).toBe('/portal?done=switched')
		await withPassword.get('/invitations')
		expect((await withPassword.submit(`/invitations/${invitationId}/decline`, {})).redirectedTo).toBe('/invitations?done=declined')
	})

	test('an invitation pending when the person joins by single sign-on is settled; one pending when they leave is cancelled', async () => {
		const { ws, owner, domain } = await workspaceWithSso()
		const { app, deps } = await portalApp(SETTINGS)
		const actor = await personActor(deps, ws.slug, owner.email)
		const statusOf = async (id: string) => (await deps.db.select({ status: invitations.status }).from(invitations).where(eq(invitations.id, id)))[0]!.status
		const email = `bob.${unique('p')}@${domain}`
		const sent = await invitePerson(deps, actor, ws, { email, name: 'Bob', role: 'admin', password: 'a temporary password' })
		expect((await ssoSignIn(email)).callback!.status).toBe(303)
		// In by single sign-on: the invitation sent before is settled, so it can never undo a later removal.
		expect(await statusOf(sent.invitationId)).toBe('cancelled')
		// And the temporary password the inviter chose no longer opens the account: the provider vouches for the person now.
		const [account] = await deps.db.select({ temporary: users.passwordTemporary }).from(users).where(eq(users.email, email))
		expect(account!.temporary).toBe(false)
		const withTemporary = await signIn(deps, { email, password: 'a temporary password', address: '192.0.2.60' }).then(
			() => 'signed in',
			(error: { code?: string }) => error.code,
		)
		expect(withTemporary).toBe('UNAUTHORIZED')

		// One still pending when a person leaves (written before this rule) is cancelled, by SCIM and by the People page alike.
		const pendingFor = async (address: string) => {
			const id = `inv_${unique()}`
			await deps.db
				.insert(invitations)
				.values({ id, workspaceId: ws.id, email: address, name: 'Again', role: 'admin', expiresAt: new Date(Date.now() + 86_400_000) })
			return id
		}
		const idOf = async (address: string) => (await deps.db.select({ id: users.id }).from(users).where(eq(users.email, address)))[0]!.id
		const bobsOld = await pendingFor(email)
		const { token } = await createScimToken(deps, actor, { name: 'Identity provider' })
		const patch = { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', path: 'active', value: false }] }
		const off = await callOn(app, 'PATCH', `/scim/v2/Users/${await idOf(email)}`, {
			key: token,
			body: patch,
			headers: { 'content-type': 'application/scim+json' },
		})
		expect(off.status).toBe(200)
		const carol = await newPerson(ws, 'recruiter')
		const carolsOld = await pendingFor(carol.email)
		await removePerson(deps, actor, ws, { email: carol.email })
		for (const [address, id] of [
			[email, bobsOld],
			[carol.email, carolsOld],
		] as const) {
			expect(await statusOf(id)).toBe('cancelled')
			expect(
				await acceptInvitation(deps, await idOf(address), id, actor.credential).then(
					() => 'accepted',
					() => 'refused',
				),
			).toBe('refused')
			const [membership] = await deps.db
				.select({ removedAt: memberships.removedAt })
				.from(memberships)
				.where(and(eq(memberships.workspaceId, ws.id), eq(memberships.userId, await idOf(address))))
			expect(membership!.removedAt).not.toBeNull()
		}
	})
})
