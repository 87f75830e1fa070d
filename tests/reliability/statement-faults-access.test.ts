/**
 * K4 for the writes that give or take away access: personal tokens (portal), vendor API keys (the
 * operator CLI, a process of its own), inviting and removing a person (portal). Each is cut by
 * pg_terminate_backend while it waits to write its activity-log line, after every other write of
 * its transaction (statement-fault-harness.ts says how). Not acknowledged (503, or a CLI exit code
 * other than 0 with no key printed), none of its effects left (no credential that works or stopped
 * working, no account or membership), and the same request again succeeds once.
 */
import { expect, setDefaultTimeout, test } from 'bun:test'
import { createPersonalToken, personActor } from '../../modules/auth/index.ts'
import { newPerson, newVendor, unique } from '../helpers.ts'
import { mcp } from '../oauth/as-client.ts'
import { PortalClient, uniqueAddress } from '../portal.ts'
import { BUN, ROOT } from './processes.ts'
import { onPostgres, skipReason, statementFaults } from './statement-fault-harness.ts'

setDefaultTimeout(60_000)

onPostgres(`a connection terminated inside a write of access leaves nothing half-done${skipReason}`, () => {
	const { world, terminatedAt, tableLock, count, linesOf, person, signedIn } = statementFaults()
	const atActivityLine = [tableLock('activity'), /^insert into "activity"/i] as const

	const mcpWorks = async (token: string) => (await mcp(world().ctx, token, 'tools/list')).status === 200
	const tokensNamed = (userId: string, name: string) =>
		count(world().admin`select count(*)::int as n from personal_tokens where user_id = ${userId} and name = ${name}`)

	// ─── Personal tokens (portal) ──────────────────────────────────────────────────────────────

	test('personal token create cut before its log line: no token row and none shown; the retry creates one that works', async () => {
		const { ws, who } = await person()
		const portal = await signedIn(who)
		await portal.get('/settings/api')
		const name = `Claude ${unique()}`
		const create = () => portal.submit('/settings/api/tokens', { name })

		const cut = await terminatedAt(...atActivityLine, create)
		expect(cut.written).toEqual(['personal_tokens'])
		expect(cut.answer.status).toBe(503)
		expect(cut.answer.text).not.toContain('bl_pat_')
		expect(await tokensNamed(who.userId, name)).toBe(0)
		expect(await linesOf(ws, 'token.created')).toBe(0)

		await portal.get('/settings/api')
		const retry = await create()
		expect(retry.redirectedTo).toBe('/settings/api')
		const token = /bl_pat_[A-Za-z0-9_-]+/.exec(retry.text)?.[0]
		expect(token).toBeString()
		expect(await mcpWorks(token!)).toBe(true)
		expect(await tokensNamed(who.userId, name)).toBe(1)
		expect(await linesOf(ws, 'token.created')).toBe(1)
	})

	test('personal token revoke cut before its log line: the token still works; the retry revokes it once', async () => {
		const { ws, who, actor } = await person()
		const { tokenId, token } = await createPersonalToken(world().deps, actor, { name: 'to revoke' })
		const portal = await signedIn(who)
		await portal.get('/settings/api')
		const revoke = () => portal.submit(`/settings/api/tokens/${tokenId}/revoke`)

		const cut = await terminatedAt(...atActivityLine, revoke)
		expect(cut.written).toEqual(['personal_tokens'])
		expect(cut.answer.status).toBe(503)
		expect((await world().admin`select revoked_at from personal_tokens where id = ${tokenId}`)[0]).toEqual({ revoked_at: null })
		expect(await mcpWorks(token)).toBe(true)
		expect(await linesOf(ws, 'token.revoked')).toBe(0)

		await portal.get('/settings/api')
		expect((await revoke()).redirectedTo).toBe('/settings/api?done=revoked')
		expect(await mcpWorks(token)).toBe(false)
		expect(await linesOf(ws, 'token.revoked')).toBe(1)
	})

	// ─── Vendor API keys (operator CLI) ────────────────────────────────────────────────────────

	/**
	 * Runs the operator CLI (`bun core/cli.ts … --json`) on the harness's database, as an operator
	 * would. Cut, it reports the failure and exits about 5 s later: it prints the error after closing
	 * its database, and that close waits out its 5-second timeout (db/client.ts).
	 */
	async function cli(...args: string[]) {
		const { databaseUrl, deps } = world()
		const env = {
			PATH: process.env.PATH ?? '',
			HOME: process.env.HOME ?? '',
			DATABASE_URL: databaseUrl,
			DATA_DIR: deps.config.dataDir,
			DEMO: 'off',
			LOG_LEVEL: 'warn',
		}
		const proc = Bun.spawn([BUN, 'core/cli.ts', ...args, '--json'], { cwd: ROOT, env, stdout: 'pipe', stderr: 'pipe' })
		const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
		return { code, stdout, stderr }
	}
	const lastJson = (stdout: string) => JSON.parse(stdout.trimEnd().split('\n').pop()!)
	/** The vendor REST API's answer to a request with this key. */
	const restStatus = async (apiKey: string) => (await fetch(`${world().server.url}/api/v1/jobs`, { headers: { authorization: `Bearer ${apiKey}` } })).status
	const keysOf = (vendorId: string) => count(world().admin`select count(*)::int as n from vendor_api_keys where vendor_id = ${vendorId}`)
	const vendorLines = (vendorId: string, action: string) =>
		count(world().admin`select count(*)::int as n from activity where target_id = ${vendorId} and action = ${action}`)

	test('vendor key-create cut before its log line: the CLI fails and prints no key, no key row; the retry creates one that works', async () => {
		const { ws } = await person()
		const { vendorId } = await newVendor(ws, 'Acme Staffing', world().deps)
		const create = () => cli('vendor', 'key-create', '--vendor', vendorId)

		const cut = await terminatedAt(...atActivityLine, create)
		expect(cut.written).toEqual(['vendor_api_keys'])
		expect(cut.answer.code).toBe(1)
		expect(cut.answer.stdout).not.toContain('vk_')
		expect(await keysOf(vendorId)).toBe(1)
		expect(await vendorLines(vendorId, 'vendor.key_created')).toBe(1)

		const retry = await create()
		expect(retry.code).toBe(0)
		expect(await restStatus(lastJson(retry.stdout).apiKey)).toBe(200)
		expect(await keysOf(vendorId)).toBe(2)
		expect(await vendorLines(vendorId, 'vendor.key_created')).toBe(2)
	})

	test('vendor key-revoke cut before its log line: the CLI fails and the key still works; the retry revokes it once', async () => {
		const { ws } = await person()
		const { vendorId, keyId, apiKey } = await newVendor(ws, 'Acme Staffing', world().deps)
		const revoke = () => cli('vendor', 'key-revoke', '--key', keyId)

		const cut = await terminatedAt(...atActivityLine, revoke)
		expect(cut.written).toEqual(['vendor_api_keys'])
		expect(cut.answer.code).toBe(1)
		expect((await world().admin`select revoked_at from vendor_api_keys where id = ${keyId}`)[0]).toEqual({ revoked_at: null })
		expect(await restStatus(apiKey)).toBe(200)
		expect(await vendorLines(vendorId, 'vendor.key_revoked')).toBe(0)

		const retry = await revoke()
		expect(retry.code).toBe(0)
		expect(lastJson(retry.stdout)).toEqual({ keyId, vendorId, revoked: true, switchedOff: {} })
		expect(await restStatus(apiKey)).toBe(401)
		expect(await vendorLines(vendorId, 'vendor.key_revoked')).toBe(1)
	})

	// ─── People (portal) ───────────────────────────────────────────────────────────────────────

	test('adding a person cut before its log line: no account and no invitation; the retry invites them once and they join by accepting', async () => {
		const { ws, who } = await person()
		const portal = await signedIn(who)
		await portal.get('/people')
		const newcomer = { email: `${unique('new')}@example.test`, name: 'Nina Newcomer', role: 'recruiter', password: 'correct horse battery' }
		const add = () => portal.submit('/people', newcomer)
		const accounts = () => count(world().admin`select count(*)::int as n from users where email = ${newcomer.email}`)
		const invited = () =>
			count(world().admin`select count(*)::int as n from invitations where email = ${newcomer.email} and workspace_id = ${ws.id} and status = 'pending'`)
		const members = () =>
			count(
				world()
					.admin`select count(*)::int as n from memberships m join users u on u.id = m.user_id where u.email = ${newcomer.email} and m.workspace_id = ${ws.id}`,
			)
		const state = async () => ({ accounts: await accounts(), invited: await invited(), members: await members(), lines: await linesOf(ws, 'person.invited') })

		const cut = await terminatedAt(...atActivityLine, add)
		expect(cut.written).toEqual(['invitations', 'users'])
		expect(cut.answer.status).toBe(503)
		expect(await state()).toEqual({ accounts: 0, invited: 0, members: 0, lines: 0 })

		await portal.get('/people')
		expect((await add()).redirectedTo).toBe('/people?done=added')
		expect(await state()).toEqual({ accounts: 1, invited: 1, members: 0, lines: 1 })
		// They join by signing in with the temporary password and accepting the invitation.
		const theirs = new PortalClient(world().app, { address: uniqueAddress() })
		expect((await theirs.signIn(newcomer.email, newcomer.password)).headers.get('location')).toStartWith('/sign-in/workspace')
		expect((await theirs.acceptFirstInvitation()).status).toBe(303)
		expect(await state()).toEqual({ accounts: 1, invited: 0, members: 1, lines: 1 })
	})

	test('removing a person cut before its log line: they stay a member, their session and token still work; the retry removes them once', async () => {
		const { ws, who } = await person()
		const { deps } = world()
		const leaver = await newPerson(ws, 'recruiter', {}, deps)
		const { token } = await createPersonalToken(deps, await personActor(deps, ws.slug, leaver.email), { name: 'leaver’s assistant' })
		const theirPortal = await signedIn(leaver)
		const portal = await signedIn(who)
		await portal.get('/people')
		const remove = () => portal.submit(`/people/${leaver.userId}/remove`)
		const membership = async () => (await world().admin`select removed_at from memberships where workspace_id = ${ws.id} and user_id = ${leaver.userId}`)[0]

		const cut = await terminatedAt(...atActivityLine, remove)
		// Deleting the sessions deletes their consent requests too (on delete cascade); invitations pending for them are cancelled, codes not yet exchanged expired, their hiring teams left and their calendar feed dropped (zero rows here, but written to).
		expect(cut.written).toEqual([
			'calendar_busy',
			'calendar_feeds',
			'invitations',
			'job_team',
			'memberships',
			'oauth_codes',
			'oauth_consent_requests',
			'oauth_grants',
			'personal_tokens',
			'scim_tokens',
			'sessions',
		])
		expect(cut.answer.status).toBe(503)
		expect(await membership()).toEqual({ removed_at: null })
		expect((await theirPortal.get('/portal')).status).toBe(200)
		expect(await mcpWorks(token)).toBe(true)
		expect(await linesOf(ws, 'person.removed')).toBe(0)

		await portal.get('/people')
		expect((await remove()).redirectedTo).toBe('/people?done=removed')
		expect((await membership())!.removed_at).not.toBeNull()
		expect((await theirPortal.get('/portal')).headers.get('location')).toStartWith('/sign-in')
		expect(await mcpWorks(token)).toBe(false)
		expect(await linesOf(ws, 'person.removed')).toBe(1)
	})
})
