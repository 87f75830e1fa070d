/**
 * Issue 16, item 3: a person in several workspaces chooses one at sign-in (one of theirs only) and
 * can switch in the portal; sessions, personal tokens and app connections are bound to the
 * workspace they were made in and never act in another.
 */
import { afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import * as oauth from 'oauth4webapi'
import { hashSecret } from '../../core/credentials.ts'
import { awayFromMinuteEdge, clock, newPerson, newWorkspace, testDeps, unique } from '../../tests/helpers.ts'
import { authorizationRequest, authServer, consent, consentToken, mcp, registerApp } from '../../tests/oauth/as-client.ts'
import { callTool, rpc } from '../../tests/mcp/rpc.ts'
import { portalApp, signedIn, uniqueAddress, PortalClient } from '../../tests/portal.ts'
import { activity } from '../activity/table.ts'
import { jobs } from '../jobs/table.ts'
import { addPerson, createWorkspace, operatorActor, removePerson } from './index.ts'
import { GENERIC_FAILURE } from './sessions.ts'
import { oauthGrants, sessions } from './table.ts'

setDefaultTimeout(30_000)
beforeAll(async () => {
	await portalApp()
}, 30_000)
afterEach(() => clock.reset())

/** The workspace the home page says the session is in. */
const signedInTo = (home: string) => home.match(/[Ss]igned in to <strong>([^<]*)<\/strong>/)?.[1]
const errorOf = (html: string) => html.match(/<p class="error" role="alert">([^<]*)<\/p>/)?.[1]
const sessionToken = (client: PortalClient) => client.cookies.get('bl_session')

/** A person in two workspaces (the operator's CLI added them to both): recruiter in A, admin in B. */
async function personInTwo() {
	const deps = await testDeps()
	const a = await createWorkspace(deps, { slug: `aa-${unique()}`, name: 'Alpha Staffing' })
	const b = await createWorkspace(deps, { slug: `bb-${unique()}`, name: 'Beta Staffing' })
	const email = `${unique('two')}@example.test`
	const password = 'correct horse battery'
	const { userId } = await addPerson(deps, operatorActor(a), a, { email, name: 'Two Places', role: 'recruiter', password })
	await addPerson(deps, operatorActor(b), b, { email, name: 'Two Places', role: 'admin', password })
	return { a, b, person: { email, password, userId } }
}

async function anonymous() {
	const { app } = await portalApp()
	return new PortalClient(app, { address: uniqueAddress() })
}

describe('signing in with several workspaces', () => {
	test('after the password the person chooses one of their workspaces; the session is bound to it, as their role there', async () => {
		const { b, person } = await personInTwo()
		const client = await anonymous()
		const answer = await client.signIn(person.email, person.password)
		expect(answer.status).toBe(303)
		expect(answer.headers.get('location')).toBe('/sign-in/workspace?next=%2Fportal')
		// No session yet: the password alone opens nothing.
		expect(sessionToken(client)).toBeUndefined()
		expect((await client.get('/portal')).status).toBe(303)
		const choice = await client.get('/sign-in/workspace?next=%2Fportal')
		expect(choice.text).toContain('Alpha Staffing')
		expect(choice.text).toContain('Beta Staffing')
		const chosen = await client.post('/sign-in/workspace', { workspace: b.slug, next: '/portal' })
		expect(chosen.status).toBe(303)
		expect(chosen.headers.get('location')).toBe('/portal')
		const home = await client.get('/portal')
		expect(signedInTo(home.text)).toBe(b.slug)
		expect(home.text).toContain('as admin')
		const deps = await testDeps()
		const [row] = await deps.db
			.select({ workspaceId: sessions.workspaceId })
			.from(sessions)
			.where(eq(sessions.id, hashSecret(sessionToken(client)!)))
		expect(row!.workspaceId).toBe(b.id)
		// The choice is used up: posting it again opens nothing more.
		await client.get('/sign-in')
		const again = await client.post('/sign-in/workspace', { workspace: b.slug, next: '/portal' })
		expect(again.status).toBe(401)
		expect(errorOf(again.text)).toMatch(/expired/)
	})

	test('a workspace that is not theirs cannot be chosen, and nothing can be chosen without the password step', async () => {
		const { person } = await personInTwo()
		const stranger = await newWorkspace()
		const client = await anonymous()
		await client.signIn(person.email, person.password)
		await client.get('/sign-in/workspace')
		for (const slug of [stranger.slug, '', 'no-such-workspace']) {
			const res = await client.post('/sign-in/workspace', { workspace: slug, next: '/portal' })
			expect(res.status).toBe(422)
			expect(errorOf(res.text)).toBe('Choose one of your workspaces.')
			expect(sessionToken(client)).toBeUndefined()
		}
		// Another browser, without the choice cookie (or with a made-up one), is sent back to sign in.
		const other = await anonymous()
		expect((await other.get('/sign-in/workspace')).headers.get('location')).toBe('/sign-in?next=%2Fportal')
		other.cookies.set('bl_sign_in_choice', 'a'.repeat(32))
		await other.get('/sign-in')
		const forged = await other.post('/sign-in/workspace', { workspace: stranger.slug, next: '/portal' })
		expect(forged.status).toBe(401)
		expect(sessionToken(other)).toBeUndefined()
		// The choice lasts ten minutes.
		clock.advance(11 * 60_000)
		const late = await client.post('/sign-in/workspace', { workspace: stranger.slug, next: '/portal' })
		expect(late.status).toBe(401)
	})

	test('the generic failure and the slow-down are unchanged for a person with several workspaces', async () => {
		const { person } = await personInTwo()
		const client = await anonymous()
		await client.get('/sign-in')
		await awayFromMinuteEdge()
		const wrong = await client.post('/sign-in', { email: person.email, password: 'not the password' })
		expect(wrong.status).toBe(401)
		expect(errorOf(wrong.text)).toBe(GENERIC_FAILURE)
		for (let i = 0; i < 5; i++) await client.post('/sign-in', { email: person.email, password: `wrong ${i}` })
		const limited = await client.post('/sign-in', { email: person.email, password: person.password })
		expect(limited.status).toBe(429)
	})
})

describe('switching workspace', () => {
	test('Switch workspace replaces the session with one in the other workspace; the old one stops; the switch is logged', async () => {
		const { a, b, person } = await personInTwo()
		const client = await signedIn(person, { workspace: a.slug })
		const home = await client.get('/portal')
		expect(home.text).toContain('Switch workspace')
		expect(home.text).toContain(`<option value="${b.slug}">`)
		const before = sessionToken(client)!
		const switched = await client.submit('/portal/switch-workspace', { workspace: b.slug, next: '/portal' })
		expect(switched.redirectedTo).toBe('/portal?done=switched')
		expect(signedInTo(switched.text)).toBe(b.slug)
		expect(sessionToken(client)).not.toBe(before)
		const deps = await testDeps()
		expect(
			await deps.db
				.select()
				.from(sessions)
				.where(eq(sessions.id, hashSecret(before))),
		).toHaveLength(0)
		const [line] = await deps.db
			.select()
			.from(activity)
			.where(and(eq(activity.workspaceId, b.id), eq(activity.action, 'workspace.switched')))
		expect(line!.actorUserId).toBe(person.userId)
		expect(line!.detail).toEqual({ from: a.slug })
	})

	test('only to one of their own workspaces, and only with the session’s CSRF token', async () => {
		const { a, person } = await personInTwo()
		const stranger = await newWorkspace()
		const client = await signedIn(person, { workspace: a.slug })
		await client.get('/portal')
		const refused = await client.post('/portal/switch-workspace', { workspace: stranger.slug })
		expect(refused.status).toBe(404)
		expect(signedInTo((await client.get('/portal')).text)).toBe(a.slug)
		const forged = await client.request('POST', '/portal/switch-workspace', { form: { csrf: 'x'.repeat(32), workspace: stranger.slug } })
		expect(forged.status).toBe(403)
		// A person in one workspace is offered no switch.
		const single = await signedIn(await newPerson(a, 'viewer'))
		expect((await single.get('/portal')).text).not.toContain('Switch workspace')
	})
})

describe('credentials stay in the workspace they were made in', () => {
	test('a personal token made in A acts only in A, and stops when the person leaves A though they stay in B', async () => {
		const { a, b, person } = await personInTwo()
		const client = await signedIn(person, { workspace: a.slug })
		const created = await client.submit('/settings/api/tokens', { name: 'made in A' })
		const token = created.text.match(/<code id="new-token">(bl_pat_[0-9A-Za-z]+)<\/code>/)![1]!
		const title = `Bound job ${unique()}`
		const made = await callTool(token, 'create_job', { title })
		expect(made.isError).toBeFalsy()
		const deps = await testDeps()
		const rows = await deps.db.select({ workspaceId: jobs.workspaceId }).from(jobs).where(eq(jobs.title, title))
		expect(rows.map((r) => r.workspaceId)).toEqual([a.id])
		// Switching the portal to B does not move the token.
		await client.submit('/portal/switch-workspace', { workspace: b.slug })
		const title2 = `Still A ${unique()}`
		await callTool(token, 'create_job', { title: title2 })
		expect((await deps.db.select({ workspaceId: jobs.workspaceId }).from(jobs).where(eq(jobs.title, title2))).map((r) => r.workspaceId)).toEqual([a.id])
		await removePerson(deps, operatorActor(a), a, { email: person.email })
		expect((await rpc(token, 'tools/list')).status).toBe(401)
		expect(signedInTo((await client.get('/portal')).text)).toBe(b.slug)
	})

	test('an app connected while the session is in B acts in B; the consent page names B; a switch kills a consent page opened before it', async () => {
		const { a, b, person } = await personInTwo()
		const ctx = await authServer()
		const portal = await signedIn(person, { workspace: b.slug })
		const { client, redirectUri } = await registerApp(ctx)
		const request = await authorizationRequest(ctx, client, redirectUri)

		// A consent page opened in B, then a switch to A: that page's Allow no longer works.
		const stale = await portal.get(request.url.pathname + request.url.search)
		expect(stale.text).toContain(`in <strong>${b.slug}</strong>`)
		expect(stale.text).toContain('Switch workspace')
		const staleToken = consentToken(stale.text)
		const staleRequest = request.url.search.slice(1)
		await portal.submit('/portal/switch-workspace', { workspace: a.slug, next: '/portal' })
		const replay = await portal.post('/oauth/authorize', { request: staleRequest, consent: staleToken, decision: 'allow' })
		expect(replay.status).toBe(403)
		await portal.submit('/portal/switch-workspace', { workspace: b.slug, next: '/portal' })

		const { location } = await consent(portal, request.url)
		const params = oauth.validateAuthResponse(ctx.as, client, location!, request.state)
		const res = await oauth.authorizationCodeGrantRequest(ctx.as, client, oauth.None(), params, redirectUri, request.verifier, {
			...ctx.opts,
			additionalParameters: { resource: ctx.resource },
		})
		const tokens = await oauth.processAuthorizationCodeResponse(ctx.as, client, res)
		const deps = await testDeps()
		const grants = await deps.db
			.select({ workspaceId: oauthGrants.workspaceId })
			.from(oauthGrants)
			.where(and(eq(oauthGrants.clientId, client.client_id), eq(oauthGrants.userId, person.userId)))
		expect(grants.map((g) => g.workspaceId)).toEqual([b.id])
		const title = `App job ${unique()}`
		const call = await mcp(ctx, tokens.access_token, 'tools/call', { name: 'create_job', arguments: { title } }, { 'mcp-protocol-version': '2025-06-18' })
		expect(call.status).toBe(200)
		expect((await deps.db.select({ workspaceId: jobs.workspaceId }).from(jobs).where(eq(jobs.title, title))).map((r) => r.workspaceId)).toEqual([b.id])
		// Leaving B stops the app, though the person is still in A.
		await removePerson(deps, operatorActor(b), b, { email: person.email })
		expect((await mcp(ctx, tokens.access_token, 'tools/list', {}, { 'mcp-protocol-version': '2025-06-18' })).status).toBe(401)
	})
})
