import { beforeAll, expect, test } from 'bun:test'
import { eq, inArray } from 'drizzle-orm'
import { newId } from '../../core/credentials.ts'
import { clock, newPerson, newWorkspace, testApp, testDeps } from '../../tests/helpers.ts'
import { ABANDONED_CLIENT_MS, cleanUp } from './housekeeping.ts'
import { issueCode, mcpResource } from './oauth/authorize.ts'
import { registerClient } from './oauth/clients.ts'
import { CONSENT_TTL_MS, openConsent } from './oauth/consent.ts'
import { oauthClients, oauthConsentRequests, oauthGrants, sessions, signInFailures } from './table.ts'
import { personActor } from './tokens.ts'

const HOUR = 3_600_000
// The database is made and migrated once, outside the first test's time (slow on a busy machine).
beforeAll(async () => {
	await testApp()
}, 180_000)
const DAY = 24 * HOUR

test('clean-up removes old sign-in failures and expired sessions, keeps recent ones', async () => {
	const deps = await testDeps()
	const ws = await newWorkspace()
	const person = await newPerson(ws, 'recruiter')
	const email = `${newId('x')}@example.test`
	const old = newId('sif')
	const recent = newId('sif')
	await deps.db.insert(signInFailures).values([
		{ id: old, email, address: '10.0.0.1', at: new Date(Date.now() - 2 * 86_400_000) },
		{ id: recent, email, address: '10.0.0.1', at: new Date() },
	])
	const expired = newId('s')
	const live = newId('s')
	await deps.db.insert(sessions).values([
		{ id: expired, userId: person.userId, workspaceId: ws.id, expiresAt: new Date(Date.now() - 1000) },
		{ id: live, userId: person.userId, workspaceId: ws.id, expiresAt: new Date(Date.now() + 86_400_000) },
	])
	clock.reset()
	await cleanUp(deps)
	const failures = await deps.db.select({ id: signInFailures.id }).from(signInFailures).where(eq(signInFailures.email, email))
	expect(failures.map((f) => f.id)).toEqual([recent])
	const left = await deps.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, person.userId))
	expect(left.map((s) => s.id)).toEqual([live])
})

test('B5 apps that never got a grant are removed a day after registering; allowed, connected and young ones stay', async () => {
	const deps = await testDeps()
	const ws = await newWorkspace()
	const person = await newPerson(ws, 'recruiter')
	const actor = await personActor(deps, ws.slug, person.email)
	// Rows are written in the past (the clock moved back) and the clean-up runs at the real time, so
	// it never removes anything younger than the rule allows that other tests may be using.
	const at = async <T>(agoMs: number, work: () => Promise<T>) => {
		clock.reset()
		clock.advance(-agoMs)
		try {
			return await work()
		} finally {
			clock.reset()
		}
	}
	const register = (agoMs: number, name: string) =>
		at(agoMs, async () => (await registerClient(deps, { client_name: name, redirect_uris: ['http://127.0.0.1:43123/callback'] })).client_id)
	const codeFor = (clientId: string) =>
		issueCode(
			deps,
			actor,
			{
				client: { id: clientId, name: 'x', redirectUris: [], grantTypes: ['authorization_code', 'refresh_token'] },
				redirectUri: 'http://127.0.0.1:43123/callback',
				redirectUriSent: true,
				state: null,
				codeChallenge: 'c'.repeat(43),
				resource: mcpResource(deps),
				scope: 'mcp',
				readOnlyRequested: false,
			},
			false,
		)
	const grantFor = (clientId: string, revokedAt: Date | null = null) =>
		deps.db
			.insert(oauthGrants)
			.values({ id: newId('grant'), clientId, userId: person.userId, workspaceId: ws.id, scope: 'mcp', resource: mcpResource(deps), revokedAt })
	const justOver = ABANDONED_CLIENT_MS + HOUR

	const abandoned = await register(justOver, 'registered, never allowed')
	const young = await register(ABANDONED_CLIENT_MS - HOUR, 'registered 23 hours ago')
	const connected = await register(justOver, 'allowed, connected')
	await grantFor(connected)
	const disconnected = await register(justOver, 'allowed, later disconnected')
	await grantFor(disconnected, new Date())
	const allowedJustNow = await register(justOver, 'allowed a moment ago, code not yet exchanged')
	await codeFor(allowedJustNow)
	const codeNeverExchanged = await register(4 * DAY, 'allowed days ago, code never exchanged')
	await at(3 * DAY, () => codeFor(codeNeverExchanged))
	const onConsentPage = await register(justOver, 'consent page open right now')
	const sessionId = newId('s')
	await deps.db.insert(sessions).values({ id: sessionId, userId: person.userId, workspaceId: ws.id, expiresAt: new Date(Date.now() + DAY) })
	await openConsent(deps, { actor, csrf: '', sessionId, timeZone: 'UTC' }, onConsentPage, 'client_id=x')
	// A consent page that was left open past its expiry is forgotten (it protects no app either).
	await at(CONSENT_TTL_MS + HOUR, () => openConsent(deps, { actor, csrf: '', sessionId, timeZone: 'UTC' }, young, 'expired page'))

	await cleanUp(deps)
	const ids = [abandoned, young, connected, disconnected, allowedJustNow, codeNeverExchanged, onConsentPage]
	const left = new Set((await deps.db.select({ id: oauthClients.id }).from(oauthClients).where(inArray(oauthClients.id, ids))).map((r) => r.id))
	expect({
		abandoned: left.has(abandoned),
		young: left.has(young),
		connected: left.has(connected),
		disconnected: left.has(disconnected),
		allowedJustNow: left.has(allowedJustNow),
		codeNeverExchanged: left.has(codeNeverExchanged),
		onConsentPage: left.has(onConsentPage),
	}).toEqual({ abandoned: false, young: true, connected: true, disconnected: true, allowedJustNow: true, codeNeverExchanged: false, onConsentPage: true })
	const pages = await deps.db
		.select({ clientId: oauthConsentRequests.clientId })
		.from(oauthConsentRequests)
		.where(eq(oauthConsentRequests.sessionId, sessionId))
	expect(pages.map((p) => p.clientId)).toEqual([onConsentPage])
	// The app whose registration was removed gets an error page that says how to recover.
	const { app } = await testApp()
	const page = await app.handle(new Request(`http://localhost/oauth/authorize?client_id=${abandoned}&response_type=code`))
	expect(page.status).toBe(400)
	expect(await page.text()).toContain('add it again')
})
