/**
 * Sessions people control (issue 26): the Security page lists a person's own sessions (browser,
 * address, last used, this one marked) with Sign out per session and Sign out everywhere else;
 * owners and admins Sign out everywhere a member (sessions, personal tokens, app connections in
 * their workspace); a password reset also disconnects apps and personal tokens unless unticked.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { newPerson, newPersonWithToken, newWorkspace, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { rpc } from '../../tests/mcp/rpc.ts'
import { authServer, connectedApp, mcp, signedInPerson, type Person } from '../../tests/oauth/as-client.ts'
import { PortalClient, portalApp, uniqueAddress } from '../../tests/portal.ts'
import { activity } from '../activity/table.ts'
import { addPerson, operatorActor } from './index.ts'
import { describeBrowser } from './session-list.ts'
import { sessions } from './table.ts'

setDefaultTimeout(60_000)

const FIREFOX = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.6; rv:131.0) Gecko/20100101 Firefox/131.0'
const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36'

beforeAll(async () => {
	await portalApp()
	await authServer()
}, 60_000)

/** A signed-in client whose every request says it is `userAgent` from `address`. */
async function browser(person: { email: string; password: string; userId: string }, userAgent: string, address = uniqueAddress(), workspace?: string) {
	const { app } = await portalApp()
	const client = new PortalClient(app, { address })
	const as = (path: string) => client.request('GET', path, { headers: { 'user-agent': userAgent } })
	await client.request('GET', '/sign-in', { headers: { 'user-agent': userAgent } })
	let res = await client.request('POST', '/sign-in', {
		form: { csrf: client.csrf, email: person.email, password: person.password, next: '/portal' },
		headers: { 'user-agent': userAgent },
	})
	if (workspace && res.headers.get('location')?.startsWith('/sign-in/workspace')) {
		await as('/sign-in/workspace?next=%2Fportal')
		res = await client.request('POST', '/sign-in/workspace', { form: { csrf: client.csrf, workspace, next: '/portal' }, headers: { 'user-agent': userAgent } })
	}
	expect(res.status).toBe(303)
	await as('/portal')
	return { client, address, as, userId: person.userId }
}

/** The rows of the sessions table as text, once every session listed has its use noted (written off the request's path). */
async function sessionRows(client: PortalClient, expected: number): Promise<string[][]> {
	for (let i = 0; i < 100; i++) {
		const page = await client.get('/settings/security')
		expect(page.status).toBe(200)
		const rows = [...page.text.matchAll(/<tr>(.*?)<\/tr>/gs)].slice(1).map((m) =>
			[...m[1]!.matchAll(/<td[^>]*>(.*?)<\/td>/gs)].map((c) =>
				c[1]!
					.replace(/<[^>]+>/g, ' ')
					.replace(/\s+/g, ' ')
					.trim(),
			),
		)
		if (rows.length === expected && rows.every((r) => !r.includes('not yet'))) return rows
		await Bun.sleep(50)
	}
	throw new Error('the sessions were not listed with their use')
}

const signedOut = async (client: PortalClient) => {
	const res = await client.get('/portal')
	return res.status === 303 && (res.headers.get('location') ?? '').startsWith('/sign-in')
}

describe('the Security page', () => {
	test('lists the person’s own sessions in every workspace with browser, address and last use, this one marked; nobody else’s', async () => {
		const ws = await newWorkspace()
		const other = await newWorkspace()
		const person = await newPerson(ws, 'recruiter')
		const deps = await testDeps()
		await addPerson(deps, operatorActor(other), other, { email: person.email, name: 'recruiter person', role: 'viewer', password: 'ignored password' })
		const stranger = await newPerson(ws, 'recruiter')
		const mine = await browser(person, FIREFOX, '198.51.100.21', ws.slug)
		await browser(person, CHROME, '203.0.113.8', other.slug)
		await browser(stranger, CHROME, '192.0.2.99')
		const rows = await sessionRows(mine.client, 2)
		expect(rows).toHaveLength(2)
		const [firefox, chrome] = [rows.find((r) => r[0]!.startsWith('Firefox'))!, rows.find((r) => r[0]!.startsWith('Chrome'))!]
		expect(firefox.slice(0, 3)).toEqual(['Firefox 131 on macOS This browser', '198.51.100.21', ws.slug])
		expect(chrome.slice(0, 3)).toEqual(['Chrome 156 on Linux', '203.0.113.8', other.slug])
		for (const r of rows) {
			expect(r[3]).toMatch(/UTC$/)
			expect(r[4]).toMatch(/UTC$/)
		}
		const page = await mine.client.get('/settings/security')
		expect(page.text).not.toContain('192.0.2.99')
		expect(page.text).toContain('Sign out everywhere else')
		expect(page.headers.get('cache-control')).toBe('no-store')
	})

	test('Sign out ends that session at once (its next request goes to sign in); another person’s session cannot be named; the form needs its CSRF token', async () => {
		const ws = await newWorkspace()
		const person = await newPerson(ws, 'recruiter')
		const mine = await browser(person, FIREFOX)
		const laptop = await browser(person, CHROME)
		const stranger = await browser(await newPerson(ws, 'admin'), CHROME)
		await sessionRows(mine.client, 2)
		const page = await mine.client.get('/settings/security')
		const refs = [...page.text.matchAll(/action="\/settings\/security\/sessions\/([0-9a-f]{16})\/sign-out"/g)].map((m) => m[1]!)
		expect(refs).toHaveLength(2)
		// Without the token nothing happens.
		const forged = await mine.client.request('POST', `/settings/security/sessions/${refs[1]}/sign-out`, { form: { csrf: 'wrong' } })
		expect(forged.status).toBe(403)
		expect(await signedOut(laptop.client)).toBe(false)
		// Someone else cannot end it, even knowing its reference.
		await stranger.client.get('/settings/security')
		for (const ref of refs) expect((await stranger.client.post(`/settings/security/sessions/${ref}/sign-out`)).status).toBe(404)
		expect(await signedOut(laptop.client)).toBe(false)
		const laptopRef = refs.find((r) => !page.text.includes(`sessions/${r}/sign-out" class="inline" data-confirm="Sign out of this browser?"`))!
		await mine.client.get('/settings/security')
		const res = await mine.client.post(`/settings/security/sessions/${laptopRef}/sign-out`)
		expect([res.status, res.headers.get('location')]).toEqual([303, '/settings/security?done=signed-out'])
		expect(await signedOut(laptop.client)).toBe(true)
		expect(await signedOut(mine.client)).toBe(false)
		// Twice: the page says it is gone, nothing else changes.
		await mine.client.get('/settings/security')
		const again = await mine.client.post(`/settings/security/sessions/${laptopRef}/sign-out`)
		expect(again.status).toBe(404)
		expect(again.text).toContain('no longer signed in')
	})

	test('Sign out everywhere else ends every other session, in every workspace; this browser stays; signing out this one clears its cookie', async () => {
		const ws = await newWorkspace()
		const other = await newWorkspace()
		const person = await newPerson(ws, 'hiring_manager')
		const deps = await testDeps()
		await addPerson(deps, operatorActor(other), other, { email: person.email, name: 'x', role: 'recruiter', password: 'ignored password' })
		const mine = await browser(person, FIREFOX, uniqueAddress(), ws.slug)
		const others = [await browser(person, CHROME, uniqueAddress(), ws.slug), await browser(person, CHROME, uniqueAddress(), other.slug)]
		await mine.client.get('/settings/security')
		const res = await mine.client.post('/settings/security/sign-out-others')
		expect([res.status, res.headers.get('location')]).toEqual([303, '/settings/security?done=signed-out-others'])
		for (const o of others) expect(await signedOut(o.client)).toBe(true)
		const page = await mine.client.get('/settings/security?done=signed-out-others')
		expect(page.text).toContain('Every other session was signed out')
		expect(page.text).not.toContain('action="/settings/security/sign-out-others"')
		const log = await deps.db
			.select({ detail: activity.detail })
			.from(activity)
			.where(and(eq(activity.workspaceId, ws.id), eq(activity.action, 'person.sessions_ended_elsewhere')))
		expect(log.map((l) => l.detail)).toEqual([{ sessions: 2 }])
		// This browser: its own Sign out.
		const ref = /action="\/settings\/security\/sessions\/([0-9a-f]{16})\/sign-out"/.exec(page.text)![1]!
		const self = await mine.client.post(`/settings/security/sessions/${ref}/sign-out`)
		expect([self.status, self.headers.get('location')]).toEqual([303, '/sign-in'])
		expect(self.setCookies.some((c) => /^bl_session=;/.test(c) && /Max-Age=0/i.test(c))).toBe(true)
		expect(await deps.db.select().from(sessions).where(eq(sessions.userId, mine.userId))).toEqual([])
	})

	test('the browser is described from its User-Agent; a missing or unknown one says so', () => {
		expect(describeBrowser(FIREFOX)).toBe('Firefox 131 on macOS')
		expect(describeBrowser(CHROME)).toBe('Chrome 156 on Linux')
		expect(
			describeBrowser(
				'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
			),
		).toBe('Safari 18 on iOS')
		expect(describeBrowser(null)).toBeNull()
		expect(describeBrowser('curl/8.5.0')).toBe('curl/8.5.0')
	})
})

describe('Sign out everywhere, by an owner or admin', () => {
	let ws: TestWorkspace
	let owner: Person
	beforeAll(async () => {
		owner = await signedInPerson('owner')
		ws = owner.ws
	})

	const peoplePost = async (who: PortalClient, userId: string) => {
		await who.get('/people')
		return who.post(`/people/${userId}/sign-out-everywhere`)
	}

	test('ends the member’s sessions, personal tokens and app connections in this workspace at once, and logs it; other workspaces keep theirs', async () => {
		const deps = await testDeps()
		const member = await signedInPerson('recruiter', ws)
		const token = await newPersonWithToken(ws, 'viewer')
		const app = await connectedApp({ who: member })
		const elsewhere = await newWorkspace()
		await addPerson(deps, operatorActor(elsewhere), elsewhere, { email: member.person.email, name: 'x', role: 'recruiter', password: 'ignored password' })
		const away = await browser(member.person, CHROME, uniqueAddress(), elsewhere.slug)
		const { createPersonalToken, personActor } = await import('./index.ts')
		const memberToken = (await createPersonalToken(deps, await personActor(deps, ws.slug, member.person.email), { name: 'laptop' })).token
		const awayToken = (await createPersonalToken(deps, await personActor(deps, elsewhere.slug, member.person.email), { name: 'elsewhere' })).token
		const ctx = await authServer()
		expect((await mcp(ctx, app.tokens.access_token, 'tools/list')).status).toBe(200)
		expect((await rpc(memberToken, 'tools/list')).status).toBe(200)

		const page = await owner.portal.get('/people')
		expect(page.text).toContain('aria-label="Sign out everywhere: recruiter person"')
		const res = await peoplePost(owner.portal, member.person.userId)
		expect([res.status, res.headers.get('location')]).toEqual([303, '/people?done=signed-out'])
		expect((await owner.portal.get('/people?done=signed-out')).text).toContain('signed out everywhere in this workspace')
		expect(await signedOut(member.portal)).toBe(true)
		expect((await rpc(memberToken, 'tools/list')).status).toBe(401)
		expect((await mcp(ctx, app.tokens.access_token, 'tools/list')).status).toBe(401)
		// Other workspaces are theirs: the session and token there keep working; so do other people's.
		expect(await signedOut(away.client)).toBe(false)
		expect((await rpc(awayToken, 'tools/list')).status).toBe(200)
		expect((await rpc(token.token, 'tools/list')).status).toBe(200)
		const [log] = await deps.db
			.select({ detail: activity.detail, targetId: activity.targetId })
			.from(activity)
			.where(and(eq(activity.workspaceId, ws.id), eq(activity.action, 'person.signed_out_everywhere')))
		expect(log).toEqual({ targetId: member.person.userId, detail: { email: member.person.email, sessions: 1, tokens: 1, apps: 1 } })
		// They can sign in again.
		expect(await signedOut((await browser(member.person, FIREFOX, uniqueAddress(), ws.slug)).client)).toBe(false)
	})

	test('an admin cannot sign an owner out; recruiters cannot sign anyone out; nobody signs themselves out here', async () => {
		const admin = await signedInPerson('admin', ws)
		const recruiter = await signedInPerson('recruiter', ws)
		const refused = await peoplePost(admin.portal, owner.person.userId)
		expect(refused.status).toBe(422)
		expect(refused.text).toContain('Only an owner can sign an owner out')
		expect(await signedOut(owner.portal)).toBe(false)
		expect((await admin.portal.get('/people')).text).not.toContain(`/people/${owner.person.userId}/sign-out-everywhere`)
		expect((await recruiter.portal.post(`/people/${admin.person.userId}/sign-out-everywhere`, { csrf: recruiter.portal.csrf })).status).toBe(403)
		expect(await signedOut(admin.portal)).toBe(false)
		const self = await peoplePost(admin.portal, admin.person.userId)
		expect(self.status).toBe(422)
		expect(self.text).toContain('use Security in your settings')
		expect(await signedOut(admin.portal)).toBe(false)
		// An owner may sign out another owner (and the admin).
		const second = await signedInPerson('owner', ws)
		expect((await peoplePost(owner.portal, second.person.userId)).status).toBe(303)
		expect(await signedOut(second.portal)).toBe(true)
	})

	test('one by one on API access, the same rule: an admin cannot revoke an owner’s token or disconnect an owner’s app, and is offered neither; a recruiter’s, yes; an owner, any', async () => {
		const deps = await testDeps()
		const admin = await signedInPerson('admin', ws)
		const boss = await signedInPerson('owner', ws)
		const member = await signedInPerson('recruiter', ws)
		const { createPersonalToken, personActor } = await import('./index.ts')
		const tokenOf = async (who: Person) => createPersonalToken(deps, await personActor(deps, ws.slug, who.person.email), { name: 'laptop' })
		const [bossToken, memberToken] = [await tokenOf(boss), await tokenOf(member)]
		const [bossApp, memberApp] = [await connectedApp({ who: boss }), await connectedApp({ who: member })]
		const ctx = await authServer()
		const apps = async () => (await mcp(ctx, bossApp.tokens.access_token, 'tools/list')).status

		const page = (await admin.portal.get('/settings/api')).text
		expect(page).not.toContain(`/settings/api/tokens/${bossToken.tokenId}/revoke`)
		expect(page).not.toContain(`/${boss.person.userId}/disconnect`)
		expect(page).toContain('Only an owner can revoke it')
		expect(page).toContain('Only an owner can disconnect it')
		expect(page).toContain(`/settings/api/tokens/${memberToken.tokenId}/revoke`)
		expect(page).toContain(`/${member.person.userId}/disconnect`)

		const revoke = await admin.portal.post(`/settings/api/tokens/${bossToken.tokenId}/revoke`)
		expect(revoke.status).toBe(403)
		expect(revoke.text).toContain('Only an owner can end an owner’s tokens and app connections')
		const disconnect = await admin.portal.post(`/settings/api/apps/${encodeURIComponent(bossApp.client.client_id)}/${boss.person.userId}/disconnect`)
		expect(disconnect.status).toBe(403)
		expect((await rpc(bossToken.token, 'tools/list')).status).toBe(200)
		expect(await apps()).toBe(200)

		expect((await admin.portal.post(`/settings/api/tokens/${memberToken.tokenId}/revoke`)).status).toBe(303)
		expect((await rpc(memberToken.token, 'tools/list')).status).toBe(401)
		expect((await admin.portal.post(`/settings/api/apps/${encodeURIComponent(memberApp.client.client_id)}/${member.person.userId}/disconnect`)).status).toBe(
			303,
		)
		expect((await mcp(ctx, memberApp.tokens.access_token, 'tools/list')).status).toBe(401)

		await owner.portal.get('/settings/api')
		expect((await owner.portal.post(`/settings/api/tokens/${bossToken.tokenId}/revoke`)).status).toBe(303)
		expect((await rpc(bossToken.token, 'tools/list')).status).toBe(401)
		expect((await owner.portal.post(`/settings/api/apps/${encodeURIComponent(bossApp.client.client_id)}/${boss.person.userId}/disconnect`)).status).toBe(303)
		expect(await apps()).toBe(401)
	})
})
