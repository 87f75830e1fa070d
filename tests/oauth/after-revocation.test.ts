/**
 * What ends with a connection: an authorization code not yet exchanged (issued a moment before Sign
 * out everywhere or a password reset that disconnects apps) never becomes a live connection after
 * it; and token rows past their end are removed by housekeeping, while live ones keep working.
 */
import { afterEach, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { disconnectAppsAndTokens } from '../../modules/auth/access.ts'
import { operatorActor, signOutEverywhere } from '../../modules/auth/index.ts'
import { cleanUp } from '../../modules/auth/housekeeping.ts'
import { clock } from '../helpers.ts'
import { connectedApp, formPost, freshCode } from './as-client.ts'

setDefaultTimeout(90_000)
afterEach(() => clock.reset())

const exchange = (c: Awaited<ReturnType<typeof freshCode>>) =>
	formPost(c.ctx, '/oauth/token', {
		grant_type: 'authorization_code',
		code: c.code,
		code_verifier: c.verifier,
		client_id: c.client.client_id,
		redirect_uri: c.redirectUri,
	})

test('a code issued just before Sign out everywhere, or a reset that disconnects apps, is not exchanged after it', async () => {
	const signedOut = await freshCode()
	await signOutEverywhere(signedOut.ctx.deps, operatorActor(signedOut.ws), signedOut.ws, signedOut.person.userId)
	expect((await exchange(signedOut)).json.error).toBe('invalid_grant')

	const reset = await freshCode()
	const deps = reset.ctx.deps
	await deps.db.transaction((tx) => disconnectAppsAndTokens(tx, { userId: reset.person.userId, now: deps.now(), reason: 'password_reset' }))
	expect((await exchange(reset)).json.error).toBe('invalid_grant')

	// A code nothing ended is exchanged as before.
	const kept = await freshCode()
	expect((await exchange(kept)).status).toBe(200)
})

test('housekeeping removes token rows a day past their end; the live refresh token keeps working', async () => {
	const app = await connectedApp()
	const deps = app.ctx.deps
	const rows = async () =>
		(
			await deps.database.rows<{ n: number }>(
				sql`select count(*)::int as n from oauth_tokens t join oauth_grants g on g.id = t.grant_id where g.client_id = ${app.client.client_id}`,
			)
		)[0]!.n
	const refresh = (token: string) => formPost(app.ctx, '/oauth/token', { grant_type: 'refresh_token', refresh_token: token, client_id: app.client.client_id })
	let token = app.tokens.refresh_token
	for (let i = 0; i < 3; i++) token = (await refresh(token)).json.refresh_token
	expect(await rows()).toBe(8)
	// Two days on: the four access tokens (an hour each) are gone; every refresh token is within its 30 days.
	clock.advance(2 * 86_400_000)
	await cleanUp(deps)
	expect(await rows()).toBe(4)
	const fresh = await refresh(token)
	expect(fresh.status).toBe(200)
	// Long after every end: nothing is left.
	clock.advance(40 * 86_400_000)
	await cleanUp(deps)
	expect(await rows()).toBe(0)
})
