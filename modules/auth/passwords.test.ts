/**
 * Change password (`/settings/password`) and the temporary password of an account made on the
 * people page, in-process through the real pages: the fields password managers look for, refusals
 * that say what is wrong, other sessions ending while this one stays, the limit on wrong current
 * passwords, and a temporary password that must be replaced before any other page (or an app's
 * consent) opens.
 */
import { afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq, sql } from 'drizzle-orm'
import { declaredAuth } from '../../core/http/auth.ts'
import { awayFromMinuteEdge, clock, newPerson, newWorkspace, testDeps, unique } from '../../tests/helpers.ts'
import { authorizationRequest, authServer, registerApp } from '../../tests/oauth/as-client.ts'
import { PortalClient, portalApp, signedIn, uniqueAddress } from '../../tests/portal.ts'
import { activity } from '../activity/table.ts'
import { addPerson, operatorActor, personActor } from './index.ts'
import { users } from './table.ts'

// Password hashing (argon2id) is slow on purpose; leave room on a busy machine.
setDefaultTimeout(30_000)

beforeAll(async () => {
	await portalApp()
}, 30_000)
afterEach(() => clock.reset())

const errorsOf = (html: string) => [...html.matchAll(/<li><a href="#([a-z-]+)">([^<]*)<\/a><\/li>/g)].map((m) => `${m[1]}: ${m[2]}`)

async function anonymous() {
	const { app } = await portalApp()
	return new PortalClient(app, { address: uniqueAddress() })
}

/** A person in two workspaces, signed in three times: twice in the first, once in the second. */
async function personInTwoWorkspaces() {
	const deps = await testDeps()
	const [first, second] = [await newWorkspace(), await newWorkspace()]
	const person = await newPerson(first, 'recruiter')
	await addPerson(deps, operatorActor(second), second, {
		email: person.email,
		name: 'recruiter person',
		role: 'viewer',
		password: 'ignored for an existing account',
	})
	const here = await signedIn(person, { workspace: first.slug })
	const elsewhere = await signedIn(person, { workspace: first.slug })
	const otherWorkspace = await signedIn(person, { workspace: second.slug })
	return { deps, first, second, person, here, elsewhere, otherWorkspace }
}

const change = (client: PortalClient, fields: { current: string; password: string; confirm?: string }) =>
	client.post('/settings/password', { current: fields.current, password: fields.password, confirm: fields.confirm ?? fields.password, next: '/portal' })

describe('Change password', () => {
	test('the form carries username, current-password and new-password (twice) for password managers, and the session’s CSRF token', async () => {
		const ws = await newWorkspace()
		const person = await newPerson(ws, 'viewer')
		const client = await signedIn(person)
		const page = await client.get('/settings/password')
		expect(page.status).toBe(200)
		expect(page.headers.get('cache-control')).toBe('no-store')
		expect(page.text).toContain('<h1>Change password</h1>')
		expect(page.text).toMatch(new RegExp(`<input type="email" name="username" autocomplete="username" value="${person.email}" hidden readonly>`))
		expect(page.text).toMatch(/<input id="current-password" name="current" type="password" value=""[^>]* autocomplete="current-password"/)
		expect(page.text.match(/type="password" value=""[^>]* autocomplete="new-password"/g)).toHaveLength(2)
		// Every role reaches it from the settings menu.
		expect(page.text).toContain('href="/settings/password" aria-current="page"')
		// Without the form's token nothing changes.
		const forged = await client.request('POST', '/settings/password', {
			form: { current: person.password, password: 'a brand new password', confirm: 'a brand new password' },
		})
		expect(forged.status).toBe(403)
		expect((await anonymous()).get('/settings/password').then((r) => r.headers.get('location'))).resolves.toBe('/sign-in?next=%2Fsettings%2Fpassword')
	})

	test('a wrong current password, a short, repeated-wrongly or unchanged new one: 422 with the field’s message, nothing changed', async () => {
		const { person, here, elsewhere } = await personInTwoWorkspaces()
		await here.get('/settings/password')
		const cases: [Parameters<typeof change>[1], string][] = [
			[{ current: 'not my password', password: 'a brand new password' }, 'current-password: Your current password is not right'],
			[{ current: '', password: 'a brand new password' }, 'current-password: Enter your current password'],
			[{ current: person.password, password: 'short' }, 'new-password: The new password must be 10-200 characters'],
			[{ current: person.password, password: 'x'.repeat(201) }, 'new-password: The new password must be 10-200 characters'],
			[
				{ current: person.password, password: 'a brand new password', confirm: 'a brand new passw0rd' },
				'confirm-password: The two new passwords are not the same',
			],
			[{ current: person.password, password: person.password }, 'new-password: The new password must be different from the current one'],
		]
		for (const [fields, error] of cases) {
			const res = await change(here, fields)
			expect({ fields, status: res.status, errors: errorsOf(res.text) }).toEqual({ fields, status: 422, errors: [error] })
			expect(res.text).toContain('<title>Error: Change password · Benchline</title>')
			// A password typed is never sent back.
			if (fields.password.length > 0) expect(res.text).not.toContain(`value="${fields.password}"`)
		}
		// Nothing changed: the other session is still in, the old password still signs in.
		expect((await elsewhere.get('/portal')).status).toBe(200)
		expect((await (await anonymous()).signIn(person.email, person.password)).status).toBe(303)
	})

	test('the right one: every other session of the person ends (in every workspace), this one stays; the old password stops working; logged in each workspace', async () => {
		const { deps, first, second, person, here, elsewhere, otherWorkspace } = await personInTwoWorkspaces()
		await here.get('/settings/password')
		const res = await change(here, { current: person.password, password: 'a brand new password' })
		expect(res.status).toBe(303)
		expect(res.headers.get('location')).toBe('/settings/password?done=changed')
		expect((await here.get('/settings/password?done=changed')).text).toContain('Your password was changed. You were signed out everywhere else.')
		expect((await here.get('/portal')).status).toBe(200)
		for (const other of [elsewhere, otherWorkspace]) expect((await other.get('/portal')).headers.get('location')).toBe('/sign-in?next=%2Fportal')
		const fresh = await anonymous()
		expect((await fresh.signIn(person.email, person.password)).status).toBe(401)
		expect((await fresh.signIn(person.email, 'a brand new password')).status).toBe(303)
		const userId = (await personActor(deps, first.slug, person.email)).userId!
		for (const ws of [first, second]) {
			const lines = await deps.db
				.select({ action: activity.action, credential: activity.credentialName })
				.from(activity)
				.where(and(eq(activity.workspaceId, ws.id), eq(activity.targetId, userId), eq(activity.action, 'person.password_changed')))
			expect(lines).toEqual([{ action: 'person.password_changed', credential: 'portal session' }])
		}
	})

	test('wrong current passwords are limited per person: after 5 in a minute even the right one waits (429 with Retry-After)', async () => {
		const ws = await newWorkspace()
		const person = await newPerson(ws, 'recruiter')
		const client = await signedIn(person)
		await client.get('/settings/password')
		await awayFromMinuteEdge()
		for (let i = 0; i < 5; i++) expect((await change(client, { current: `wrong guess ${i}`, password: 'a brand new password' })).status).toBe(422)
		const waiting = await change(client, { current: person.password, password: 'a brand new password' })
		expect(waiting.status).toBe(429)
		expect(Number(waiting.headers.get('retry-after'))).toBeGreaterThan(0)
		expect(errorsOf(waiting.text)[0]).toMatch(/^current-password: Too many wrong current passwords\. Wait \d+ seconds, then try again\.$/)
		// Still the old password.
		await signedIn(person)
	})
})

describe('a temporary password', () => {
	/** Someone added on the people page (an account made with the temporary password), signed in after accepting. */
	async function newcomer() {
		const ws = await newWorkspace()
		const admin = await signedIn(await newPerson(ws, 'admin'))
		const email = `${unique('new')}@example.test`
		await admin.get('/people')
		expect((await admin.submit('/people', { name: 'New Hire', email, role: 'recruiter', password: 'temporary password' })).status).toBe(200)
		const client = await anonymous()
		await client.signIn(email, 'temporary password')
		const entered = await client.acceptFirstInvitation()
		expect(entered.headers.get('location')).toBe('/portal')
		return { ws, email, client }
	}

	test('until the person chooses their own, every portal page sends them to choose it (with where they were going), other posts are refused, signing out works', async () => {
		const { ws, client } = await newcomer()
		const { app } = await portalApp()
		// Every page a signed-in person can open, from the app's route table (ids made up: the redirect comes first).
		const pages = app.routes
			.filter(
				(r) => r.method === 'GET' && r.path !== '/settings/password' && (declaredAuth(r.hooks) === 'signed-in' || typeof declaredAuth(r.hooks) === 'object'),
			)
			.map((r) => r.path.replace(/:[A-Za-z]+/g, 'x'))
		expect(pages.length).toBeGreaterThan(10)
		expect(pages).toContain('/portal')
		const answers = await Promise.all(pages.map(async (path) => [path, (await client.get(path)).headers.get('location')] as const))
		expect(answers.filter(([path, location]) => location !== `/settings/password?next=${encodeURIComponent(path)}`)).toEqual([])

		// The page itself opens, with nothing else to follow; posts elsewhere are refused with the reason.
		const page = await client.get('/settings/password?next=%2Ftodos')
		expect(page.status).toBe(200)
		expect(page.text).toContain('<h1>Choose your password</h1>')
		expect(page.text).toContain('Temporary password')
		expect(page.text).not.toContain('href="/settings/api"')
		const refused = await client.post('/portal/switch-workspace', { workspace: ws.slug })
		expect(refused.status).toBe(403)
		expect(refused.text).toContain('choose your own password first')
		// Test connection (the portal's own MCP call) is refused too.
		const mcp = await client.request('POST', '/api/mcp', {
			headers: { 'x-benchline-connection-test': client.csrf, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
			body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
		})
		expect(mcp.status).toBe(403)
		// Addressed as the router reads it (a trailing slash), the two open paths stay open.
		expect((await client.get('/settings/password/?next=%2Ftodos')).status).toBe(200)
		const out = await client.post('/sign-out/')
		expect(out.headers.get('location')).toBe('/sign-in')
	})

	test('an app’s consent page waits for it too: the person chooses a password, then comes back to the consent', async () => {
		const { client } = await newcomer()
		const ctx = await authServer()
		const { client: app, redirectUri } = await registerApp(ctx)
		const { url } = await authorizationRequest(ctx, app, redirectUri)
		const consent = await client.get(url.pathname + url.search)
		expect(consent.status).toBe(303)
		expect(consent.headers.get('location')).toBe(`/settings/password?next=${encodeURIComponent(url.pathname + url.search)}`)
		await client.get(consent.headers.get('location')!)
		const chosen = await client.post('/settings/password', {
			current: 'temporary password',
			password: 'my own passphrase',
			confirm: 'my own passphrase',
			next: url.pathname + url.search,
		})
		expect(chosen.headers.get('location')).toBe(url.pathname + url.search)
		const page = await client.get(url.pathname + url.search)
		expect(page.status).toBe(200)
		expect(page.text).toContain('Allow')
	})

	test('choosing it: the temporary one must be typed, the new one must differ; then the portal opens, the temporary one no longer signs in', async () => {
		const { email, client } = await newcomer()
		await client.get('/settings/password?next=%2Ftodos')
		const same = await client.post('/settings/password', {
			current: 'temporary password',
			password: 'temporary password',
			confirm: 'temporary password',
			next: '/todos',
		})
		expect(same.status).toBe(422)
		expect(errorsOf(same.text)).toEqual(['new-password: The new password must be different from the current one'])
		expect(same.text).toContain('<h1>Choose your password</h1>')
		const chosen = await client.post('/settings/password', {
			current: 'temporary password',
			password: 'my own passphrase',
			confirm: 'my own passphrase',
			next: '/todos',
		})
		expect(chosen.status).toBe(303)
		expect(chosen.headers.get('location')).toBe('/todos')
		expect((await client.get('/todos')).status).toBe(200)
		expect((await client.get('/settings/password')).text).toContain('<h1>Change password</h1>')
		const deps = await testDeps()
		expect((await deps.db.select({ temporary: users.passwordTemporary }).from(users).where(eq(users.email, email)))[0]!.temporary).toBe(false)
		expect((await (await anonymous()).signIn(email, 'temporary password')).status).toBe(401)
	})

	test('only a new account gets one: an existing account invited keeps its own password, and passwords set with the CLI are not temporary', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const existing = await newPerson(await newWorkspace(), 'recruiter')
		const admin = await signedIn(await newPerson(ws, 'owner'))
		await admin.get('/people')
		await admin.submit('/people', { name: 'Someone Known', email: existing.email, role: 'viewer', password: 'a password they never see' })
		const temporary = async (email: string) => (await deps.db.select({ t: users.passwordTemporary }).from(users).where(eq(users.email, email)))[0]!.t
		expect(await temporary(existing.email)).toBe(false)
		const cliMade = await newPerson(ws, 'recruiter')
		expect(await temporary(cliMade.email)).toBe(false)
		// Nothing on the way: a CLI-made person goes straight in.
		expect((await (await signedIn(cliMade)).get('/portal')).status).toBe(200)
		const [{ n }] = await deps.database.rows<{ n: number }>(sql`select count(*)::int as n from users where password_temporary and email = ${existing.email}`)
		expect(n).toBe(0)
	})
})
