/**
 * Portal sign-in and sessions (Lucia's pattern without the package): the cookie, what is stored,
 * sliding expiry, one generic message for wrong credentials, slowing down guessing per account and
 * per address, CSRF on every form, no framing of any page, and sign-out.
 */
import { afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { eq, sql } from 'drizzle-orm'
import { hashSecret } from '../../core/credentials.ts'
import { careersPagePath, clock, newPerson, newPersonWithToken, newWorkspace, testDeps } from '../../tests/helpers.ts'
import { PortalClient, portalApp, signedIn, uniqueAddress } from '../../tests/portal.ts'
import { callTool } from '../../tests/mcp/rpc.ts'
import { operatorActor, personActor, removePerson } from './index.ts'
import { GENERIC_FAILURE, SESSION_DAYS } from './sessions.ts'
import { personalTokens, sessions, signInFailures } from './table.ts'

const DAY = 86_400_000
// Password hashing (argon2id) is slow on purpose; leave room on a busy machine.

beforeAll(async () => {
	await portalApp()
}, 30_000)
afterEach(() => clock.reset())

const errorOf = (html: string) => html.match(/<p class="error" role="alert">([^<]*)<\/p>/)?.[1]
const cookieLine = (lines: string[], name: string) => lines.find((l) => l.startsWith(`${name}=`))
const sessionToken = (client: PortalClient) => client.cookies.get('bl_session') ?? client.cookies.get('__Host-bl_session')

async function anonymous(overrides: Record<string, string> = {}, origin?: string) {
	const { app } = await portalApp(overrides)
	return new PortalClient(app, { address: uniqueAddress(), origin })
}

describe('the session cookie and what is stored', () => {
	test('signing in sets an HttpOnly, SameSite=Lax cookie (not Secure on plain-http localhost) and stores only the SHA-256 of the token', async () => {
		const ws = await newWorkspace()
		const person = await newPerson(ws, 'recruiter')
		const client = await anonymous()
		const form = await client.get('/sign-in')
		expect(form.status).toBe(200)
		const res = await client.post('/sign-in', { email: person.email, password: person.password, next: '/settings/api' })
		expect(res.status).toBe(303)
		expect(res.headers.get('location')).toBe('/settings/api')
		const line = cookieLine(res.setCookies, 'bl_session')!
		expect(line).toBeDefined()
		expect(line).toMatch(/; HttpOnly/i)
		expect(line).toMatch(/; SameSite=Lax/i)
		expect(line).toMatch(/; Path=\//i)
		expect(line).not.toMatch(/; Secure/i)
		const token = sessionToken(client)!
		expect(token).toMatch(/^[a-z2-7]{32}$/)

		const { deps } = await portalApp()
		const rows = await deps.db
			.select()
			.from(sessions)
			.where(eq(sessions.userId, (await personActor(deps, ws.slug, person.email)).userId!))
		expect(rows).toHaveLength(1)
		expect(rows[0]!.id).toBe(hashSecret(token))
		expect(JSON.stringify(rows)).not.toContain(token)

		const home = await client.get('/portal')
		expect(home.status).toBe(200)
		expect(home.text).toContain('recruiter person')
	})

	test('over https the cookie is Secure and host-only (__Host- prefix), and pages send HSTS', async () => {
		const ws = await newWorkspace()
		const person = await newPerson(ws, 'viewer')
		const client = await anonymous({ BASE_URL: 'https://jobs.example.com' }, 'https://jobs.example.com')
		await client.get('/sign-in')
		const res = await client.post('/sign-in', { email: person.email, password: person.password })
		expect(res.status).toBe(303)
		const line = cookieLine(res.setCookies, '__Host-bl_session')!
		expect(line).toBeDefined()
		expect(line).toMatch(/; Secure/i)
		expect(line).toMatch(/; HttpOnly/i)
		expect(line).toMatch(/; SameSite=Lax/i)
		expect(line).not.toMatch(/; Domain=/i)
		const home = await client.get('/portal')
		expect(home.status).toBe(200)
		expect(home.headers.get('strict-transport-security')).toContain('max-age=')
		// The anonymous CSRF cookie is Secure too.
		const fresh = await anonymous({ BASE_URL: 'https://jobs.example.com' }, 'https://jobs.example.com')
		const signInPage = await fresh.get('/sign-in')
		expect(cookieLine(signInPage.setCookies, 'csrf')).toMatch(/; Secure/i)
	})

	test('a cookie that is not a session (unknown, malformed, or the stored hash itself) does not sign anyone in', async () => {
		const ws = await newWorkspace()
		const person = await newPerson(ws, 'owner')
		const client = await signedIn(person)
		const token = sessionToken(client)!
		for (const forged of ['a'.repeat(32), `${token}x`, hashSecret(token), '']) {
			const other = await anonymous()
			if (forged) other.cookies.set('bl_session', forged)
			const res = await other.get('/portal')
			expect(res.status).toBe(303)
			expect(res.headers.get('location')).toBe('/sign-in?next=%2Fportal')
		}
	})
})

describe('sliding expiry', () => {
	test(`a session lasts ${SESSION_DAYS} days, is extended when used in its second half, and ends when left unused`, async () => {
		const ws = await newWorkspace()
		const person = await newPerson(ws, 'recruiter')
		const { deps } = await portalApp()
		const userId = (await personActor(deps, ws.slug, person.email)).userId!
		const expiry = async () => (await deps.db.select({ at: sessions.expiresAt }).from(sessions).where(eq(sessions.userId, userId)))[0]!.at.getTime()

		const client = await signedIn(person)
		const signedInAt = clock.now().getTime()
		const first = await expiry()
		expect(Math.abs(first - (signedInAt + SESSION_DAYS * DAY))).toBeLessThan(60_000)

		// Used in the first half: nothing changes (no cookie, no write).
		clock.advance(10 * DAY)
		const early = await client.get('/portal')
		expect(early.status).toBe(200)
		expect(cookieLine(early.setCookies, 'bl_session')).toBeUndefined()
		expect(await expiry()).toBe(first)

		// Used in the second half: the expiry slides forward, in the database and in the cookie.
		clock.advance(6 * DAY)
		const late = await client.get('/settings/api')
		expect(late.status).toBe(200)
		const slid = await expiry()
		expect(Math.abs(slid - (clock.now().getTime() + SESSION_DAYS * DAY))).toBeLessThan(60_000)
		const line = cookieLine(late.setCookies, 'bl_session')!
		expect(line).toMatch(/; HttpOnly/i)
		const expires = Date.parse(line.match(/Expires=([^;]+)/i)![1]!)
		expect(Math.abs(expires - slid)).toBeLessThan(2_000)

		// Still good 29 days later (the slid expiry), gone a day after it.
		clock.advance(SESSION_DAYS * DAY - DAY)
		expect((await client.get('/portal')).status).toBe(200)
		const last = await expiry()
		clock.advance(SESSION_DAYS * DAY + 60_000)
		expect(clock.now().getTime()).toBeGreaterThan(last)
		const gone = await client.get('/portal')
		expect(gone.status).toBe(303)
		expect(gone.headers.get('location')).toStartWith('/sign-in')
	})
})

describe('wrong credentials', () => {
	test('an unknown e-mail, a wrong password and a person who left get one generic message', async () => {
		const ws = await newWorkspace()
		const person = await newPerson(ws, 'recruiter')
		const leaver = await newPerson(ws, 'viewer')
		const { deps } = await portalApp()
		await removePerson(deps, operatorActor(ws), ws, { email: leaver.email })

		const answers = []
		for (const [email, password] of [
			[`nobody-${Date.now()}@example.test`, person.password],
			[person.email, 'not the password at all'],
			[person.email.toUpperCase(), 'not the password at all'],
			[leaver.email, leaver.password],
		] as const) {
			const client = await anonymous()
			await client.get('/sign-in')
			const res = await client.post('/sign-in', { email, password })
			expect(res.setCookies.some((l) => l.includes('bl_session=') && !l.includes('bl_session=;'))).toBe(false)
			answers.push({ status: res.status, error: errorOf(res.text) })
		}
		expect(answers.map((a) => a.error)).toEqual(Array(4).fill(GENERIC_FAILURE))
		expect(new Set(answers.map((a) => a.status))).toEqual(new Set([401]))
		// The message names neither which part was wrong nor whether the account exists.
		expect(GENERIC_FAILURE.toLowerCase()).not.toMatch(/unknown|no account|not found|exist|wrong password/)
	})

	test('the form is labelled and keeps the typed e-mail address but never the password', async () => {
		const client = await anonymous()
		const page = await client.get('/sign-in')
		expect(page.text).toMatch(/<label for="email">Email <input id="email"/)
		expect(page.text).toMatch(/<label for="password">Password <input id="password"[^>]*type="password"/)
		expect(page.text).toContain('<button type="submit">Sign in</button>')
		const res = await client.post('/sign-in', { email: 'who@example.test', password: 'secret-typed-here' })
		expect(res.text).toContain('value="who@example.test"')
		expect(res.text).not.toContain('secret-typed-here')
	})

	test('repeated failures on one account slow down the address they come from, not the account: its owner signs in from elsewhere', async () => {
		const ws = await newWorkspace()
		const person = await newPerson(ws, 'recruiter')
		const other = await newPerson(ws, 'recruiter')
		const { app } = await portalApp()
		const attacker = new PortalClient(app, { address: uniqueAddress() })
		await attacker.get('/sign-in')
		const guesses = []
		for (let i = 0; i < 5; i++) guesses.push((await attacker.post('/sign-in', { email: person.email, password: `guess number ${i}` })).status)
		expect(guesses).toEqual([401, 401, 401, 401, 401])
		// The sixth try from that address is refused, even with the right password.
		const refused = await attacker.post('/sign-in', { email: person.email, password: person.password })
		expect(refused.status).toBe(429)
		expect(errorOf(refused.text)).toMatch(/too many failed attempts/i)
		expect(sessionToken(attacker)).toBeUndefined()
		// The person, from their own address, is not refused; nor is another account from the attacker's.
		const owner = await anonymous()
		await owner.get('/sign-in')
		expect((await owner.post('/sign-in', { email: person.email, password: person.password })).status).toBe(303)
		expect((await attacker.post('/sign-in', { email: other.email, password: other.password })).status).toBe(303)
		// The owner's success clears only the owner's own failures: the attacker's address stays slowed down.
		expect((await attacker.post('/sign-in', { email: person.email, password: person.password })).status).toBe(429)
		// After the window, the right password works from there again.
		clock.advance(16 * 60_000)
		expect((await attacker.post('/sign-in', { email: person.email, password: person.password })).status).toBe(303)
	})

	test('the owner’s own mistakes slow down only the owner’s address, and a success clears them', async () => {
		const ws = await newWorkspace()
		const person = await newPerson(ws, 'recruiter')
		const { app } = await portalApp()
		const owner = new PortalClient(app, { address: uniqueAddress() })
		await owner.get('/sign-in')
		for (let i = 0; i < 4; i++) expect((await owner.post('/sign-in', { email: person.email, password: `typo ${i}` })).status).toBe(401)
		expect((await owner.post('/sign-in', { email: person.email, password: person.password })).status).toBe(303)
		// The success forgot the four typos: five more wrong passwords are answered 401 before the limit.
		const again = new PortalClient(app, { address: owner.options.address })
		await again.get('/sign-in')
		const after = []
		for (let i = 0; i < 6; i++) after.push((await again.post('/sign-in', { email: person.email, password: `typo again ${i}` })).status)
		expect(after).toEqual([401, 401, 401, 401, 401, 429])
	})

	test('repeated failures from one address slow that address down, whatever the accounts tried', async () => {
		const ws = await newWorkspace()
		const person = await newPerson(ws, 'recruiter')
		const address = uniqueAddress()
		const { app } = await portalApp()
		const attacker = new PortalClient(app, { address })
		await attacker.get('/sign-in')
		// Twenty failures on twenty different accounts (no account is slowed down by itself): the
		// first eighteen are written directly (each costs a full password hash otherwise).
		const { deps } = await portalApp()
		await deps.db
			.insert(signInFailures)
			.values(Array.from({ length: 18 }, (_, i) => ({ id: `sif_seed${i}${Date.now()}`, email: `earlier${i}@example.test`, address, at: clock.now() })))
		// A client cannot escape by sending its own X-Forwarded-For: the proxy's entry (the last) counts.
		const spoofed = { 'x-forwarded-for': `${uniqueAddress()}, ${address}` }
		const guesses = await Promise.all(
			[0, 1].map((i) => attacker.post('/sign-in', { email: `guess${i}-${Date.now()}@example.test`, password: 'hunter2hunter2' }, spoofed)),
		)
		expect(guesses.map((g) => g.status)).toEqual([401, 401])
		const refused = await attacker.post('/sign-in', { email: person.email, password: person.password }, { 'x-forwarded-for': `${uniqueAddress()}, ${address}` })
		expect(refused.status).toBe(429)
		// The same account from another address is fine.
		expect((await (await signedIn(person)).get('/portal')).status).toBe(200)
	})

	test('guesses sent at the same time from one address cannot get past the limit', async () => {
		const ws = await newWorkspace()
		const person = await newPerson(ws, 'recruiter')
		const { app } = await portalApp()
		const address = uniqueAddress()
		const clients = await Promise.all(
			Array.from({ length: 10 }, async () => {
				const c = new PortalClient(app, { address })
				await c.get('/sign-in')
				return c
			}),
		)
		const statuses = await Promise.all(
			clients.map((c, i) => c.post('/sign-in', { email: person.email, password: `parallel guess ${i}` }).then((r) => r.status)),
		)
		expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(5)
		expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(5)
	})
})

describe('CSRF', () => {
	test('the sign-in form is refused without the token, with a wrong one, and from another site', async () => {
		const ws = await newWorkspace()
		const person = await newPerson(ws, 'owner')
		const client = await anonymous()
		await client.get('/sign-in')
		const good = client.csrf
		expect(good).toMatch(/^[a-z2-7]{32}$/)
		const missing = await client.request('POST', '/sign-in', { form: { email: person.email, password: person.password } })
		const wrong = await client.post('/sign-in', { email: person.email, password: person.password, csrf: 'a'.repeat(32) })
		const foreign = await client.post('/sign-in', { email: person.email, password: person.password, csrf: good }, { origin: 'https://evil.example' })
		for (const res of [missing, wrong, foreign]) {
			expect(res.status).toBe(403)
			expect(sessionToken(client)).toBeUndefined()
		}
		// Without the cookie the token alone is not enough (double submit).
		const cookieless = await anonymous()
		const res = await cookieless.post('/sign-in', { email: person.email, password: person.password, csrf: good })
		expect(res.status).toBe(403)
		// The right token from our own origin works.
		expect((await client.post('/sign-in', { email: person.email, password: person.password, csrf: good }, { origin: 'http://localhost' })).status).toBe(303)
	})

	test('signed-in forms are refused without the session’s token, with another session’s token, and from another site', async () => {
		const ws = await newWorkspace()
		const owner = await newPerson(ws, 'owner')
		const victim = await newPerson(ws, 'recruiter')
		const client = await signedIn(owner)
		const otherSession = await signedIn(await newPerson(ws, 'admin'))
		const { deps } = await portalApp()
		const victimId = (await personActor(deps, ws.slug, victim.email)).userId!
		const attempts = [
			client.request('POST', '/settings/api/tokens', { form: { name: 'no token' } }),
			client.post('/settings/api/tokens', { name: 'wrong token', csrf: 'x'.repeat(32) }),
			client.post('/settings/api/tokens', { name: 'borrowed token', csrf: otherSession.csrf }),
			client.post('/settings/api/tokens', { name: 'foreign origin' }, { origin: 'https://evil.example' }),
			client.request('POST', `/people/${victimId}/remove`, { form: {} }),
			client.post(`/people/${victimId}/remove`, {}, { origin: 'https://evil.example' }),
			client.request('POST', '/sign-out', { form: {} }),
		]
		for (const res of await Promise.all(attempts)) expect(res.status).toBe(403)
		const owned = await deps.db.select().from(personalTokens).where(eq(personalTokens.workspaceId, ws.id))
		expect(owned).toHaveLength(0)
		expect((await personActor(deps, ws.slug, victim.email)).userId).toBe(victimId)
		expect((await client.get('/portal')).status).toBe(200)
		// With its own token the form works.
		expect((await client.post('/settings/api/tokens', { name: 'fine' })).status).toBe(303)
	})
})

describe('pages', () => {
	test("every page, error pages included, forbids framing (frame-ancestors 'none')", async () => {
		const ws = await newWorkspace()
		const owner = await newPersonWithToken(ws, 'owner')
		const { app } = await portalApp()
		const job = (await callTool(owner.token, 'create_job', { title: 'Frame Test Engineer' })).structuredContent.job
		const open = (await callTool(owner.token, 'set_job_status', { jobId: job.id, status: 'Open' })).structuredContent.job
		const client = await signedIn(owner)
		const anonymousClient = await anonymous()
		const pages = app.routes.filter((r: any) => r.method === 'GET' && !r.path.includes(':') && !r.path.startsWith('/api/')).map((r: any) => r.path as string)
		expect(pages).toEqual(expect.arrayContaining(['/sign-in', '/portal', '/settings/api', '/people', '/activity', '/careers']))
		const paths = [...pages, `/careers/${ws.slug}`, await careersPagePath(open.url), `/careers/${ws.slug}/jobs/no-such-job`, '/no-such-page', `/static/app.css`]
		for (const path of paths)
			for (const c of [client, anonymousClient]) {
				const res = await c.get(path)
				expect({ path, csp: res.headers.get('content-security-policy') }).toEqual({ path, csp: expect.stringContaining("frame-ancestors 'none'") })
				expect(res.headers.get('x-frame-options')).toBe('DENY')
			}
		// A refused page (403) and a refused form (403) too.
		const viewer = await signedIn(await newPerson(ws, 'viewer'))
		const forbidden = await viewer.get('/people')
		expect(forbidden.status).toBe(403)
		expect(forbidden.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
		const refused = await client.request('POST', '/settings/api/tokens', { form: { name: 'x' } })
		expect(refused.status).toBe(403)
		expect(refused.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
	})

	test('a page that needs a session sends the visitor to sign in and back; only local paths are followed', async () => {
		const ws = await newWorkspace()
		const person = await newPerson(ws, 'recruiter')
		const client = await anonymous()
		const res = await client.get('/settings/api')
		expect(res.status).toBe(303)
		expect(res.headers.get('location')).toBe('/sign-in?next=%2Fsettings%2Fapi')
		const form = await client.get('/sign-in?next=%2Fsettings%2Fapi')
		expect(form.text).toContain('name="next" value="/settings/api"')
		for (const next of ['//evil.example/x', 'https://evil.example/', '/\\evil.example']) {
			const c = await anonymous()
			await c.get('/sign-in')
			const r = await c.post('/sign-in', { email: person.email, password: person.password, next })
			expect(r.status).toBe(303)
			expect(r.headers.get('location')).toBe('/portal')
		}
	})
})

describe('sign-out', () => {
	test('ends the session: the cookie is cleared, the row deleted, and the old cookie no longer works', async () => {
		const ws = await newWorkspace()
		const person = await newPerson(ws, 'recruiter')
		const client = await signedIn(person)
		const token = sessionToken(client)!
		const { deps } = await portalApp()
		const res = await client.post('/sign-out')
		expect(res.status).toBe(303)
		expect(res.headers.get('location')).toBe('/sign-in')
		const cleared = cookieLine(res.setCookies, 'bl_session')!
		expect(cleared).toMatch(/Max-Age=0/i)
		expect(
			await deps.db
				.select()
				.from(sessions)
				.where(eq(sessions.id, hashSecret(token))),
		).toHaveLength(0)
		const replay = await anonymous()
		replay.cookies.set('bl_session', token)
		expect((await replay.get('/portal')).status).toBe(303)
	})

	test('signing out ends only that session; the person’s other sessions stay', async () => {
		const ws = await newWorkspace()
		const person = await newPerson(ws, 'recruiter')
		const laptop = await signedIn(person)
		const phone = await signedIn(person)
		await laptop.post('/sign-out')
		expect((await laptop.get('/portal')).status).toBe(303)
		expect((await phone.get('/portal')).status).toBe(200)
		const deps = await testDeps()
		const [{ n }] = (await deps.database.rows<{ n: number }>(
			sql`select count(*)::int as n from sessions where user_id = ${(await personActor(deps, ws.slug, person.email)).userId}`,
		)) as [{ n: number }]
		expect(n).toBe(1)
	})
})
