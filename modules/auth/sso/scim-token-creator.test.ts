/**
 * A SCIM token acts as an owner of its workspace, so it ends with its creator's ownership: the tokens
 * an owner made are revoked when they leave the workspace or stop being an owner, on every path
 * (CLI `user remove`, the people page's Remove and role change, SCIM `active: false`, `DELETE` and
 * removal from the Owner group); the remaining owners read why on `/settings/sso`. Found by a prober:
 * a removed owner provisioned themselves back as Owner with the token they had made.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { and, eq, sql } from 'drizzle-orm'
import { pgTable, text } from 'drizzle-orm/pg-core'
import { modules } from '../../../core/main.ts'
import { callOn, emptyDatabase, migrationsBefore, tableAsItWas, newPerson, newWorkspace, testDeps, type TestWorkspace } from '../../../tests/helpers.ts'
import { portalApp, signedIn } from '../../../tests/portal.ts'
import { activity } from '../../activity/table.ts'
import { authCommands } from '../commands.ts'
import auth, { personActor } from '../index.ts'
import { memberships, scimTokens } from '../table.ts'
import { createScimToken } from './scim-tokens.ts'

setDefaultTimeout(60_000)

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User'
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp'

let app: Awaited<ReturnType<typeof portalApp>>['app']
beforeAll(async () => {
	app = (await portalApp()).app
})

const scim = (token: string, method: string, path: string, body?: unknown) =>
	callOn(app, method, `/scim/v2${path}`, {
		key: token,
		raw: body === undefined ? undefined : JSON.stringify(body),
		headers: { 'content-type': 'application/scim+json' },
	})

async function tokenOf(ws: TestWorkspace, person: { email: string }, name: string) {
	const deps = await testDeps()
	const actor = await personActor(deps, ws.slug, person.email)
	return (await createScimToken(deps, { ...actor, credential: { kind: 'session', id: 'test', name: 'portal session' } }, { name })).token
}

/** A workspace with two owners, each with a SCIM token of their own. */
async function twoOwners() {
	const ws = await newWorkspace()
	const [o1, o2] = [await newPerson(ws, 'owner'), await newPerson(ws, 'owner')]
	return { ws, o1, o2, t1: await tokenOf(ws, o1, 'Okta'), t2: await tokenOf(ws, o2, 'Entra') }
}

/** The token no longer opens SCIM, and cannot bring its creator back as an owner. */
async function expectRefused(token: string, creator: { email: string }) {
	expect((await scim(token, 'GET', '/Users')).status).toBe(401)
	expect((await scim(token, 'POST', '/Users', { schemas: [USER], userName: creator.email })).status).toBe(401)
}

/** …and is revoked, with the reason the settings page gives. */
async function expectRevoked(ws: TestWorkspace, token: string, creator: { email: string }, reason: string) {
	await expectRefused(token, creator)
	const deps = await testDeps()
	const [row] = await deps.db
		.select({ reason: scimTokens.revokedReason })
		.from(scimTokens)
		.where(and(eq(scimTokens.workspaceId, ws.id), eq(scimTokens.lastFour, token.slice(-4))))
	expect(row?.reason).toBe(reason)
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

describe('the SCIM tokens a person made are revoked when they', () => {
	test('are removed with the CLI (the prober’s case: the token re-attached them and made them Owner again)', async () => {
		const { ws, o2, t1, t2 } = await twoOwners()
		const remove = authCommands.find((c) => c.name === 'user remove')!
		await remove.run(await testDeps(), { workspace: ws.slug, email: o2.email }, { write: async () => {} })
		await expectRevoked(ws, t2, o2, 'creator_left')
		expect(
			(await scim(t2, 'PATCH', '/Groups/owner', { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: o2.userId }] }] })).status,
		).toBe(401)
		// The other owner's token goes on; the removed owner's password opens nothing.
		expect((await scim(t1, 'GET', '/Users')).status).toBe(200)
		await expect(signedIn(o2)).rejects.toThrow(/sign-in failed/)
		// Logged as the operator's doing, with the reason.
		const deps = await testDeps()
		const logged = await deps.db
			.select({ detail: activity.detail, by: activity.credentialKind })
			.from(activity)
			.where(and(eq(activity.workspaceId, ws.id), eq(activity.action, 'scim_token.revoked')))
		expect(logged).toEqual([{ detail: { name: 'Entra', reason: 'creator_left' }, by: 'cli' }])
	})

	test('are removed, or made an admin, on the people page', async () => {
		const { ws, o1, o2, t1, t2 } = await twoOwners()
		const page = await signedIn(o1)
		await page.get('/people')
		expect((await page.post(`/people/${o2.userId}/role`, { role: 'admin' })).status).toBe(303)
		await expectRevoked(ws, t2, o2, 'creator_not_owner')
		const o3 = await newPerson(ws, 'owner')
		const t3 = await tokenOf(ws, o3, 'Okta 3')
		await page.get('/people')
		expect((await page.post(`/people/${o3.userId}/remove`)).status).toBe(303)
		await expectRevoked(ws, t3, o3, 'creator_left')
		expect((await scim(t1, 'GET', '/Users')).status).toBe(200)
		// A role change between roles that may not make tokens changes nothing of the owners' tokens.
		const recruiter = await newPerson(ws, 'recruiter')
		await page.get('/people')
		await page.post(`/people/${recruiter.userId}/role`, { role: 'viewer' })
		expect((await scim(t1, 'GET', '/Users')).status).toBe(200)
	})

	test('are deactivated or deleted by SCIM, or removed from its Owner group', async () => {
		const { ws, o2, t1, t2 } = await twoOwners()
		expect((await scim(t1, 'PATCH', `/Users/${o2.userId}`, { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] })).status).toBe(
			200,
		)
		await expectRevoked(ws, t2, o2, 'creator_left')

		const o3 = await newPerson(ws, 'owner')
		const t3 = await tokenOf(ws, o3, 'Okta 3')
		expect((await scim(t1, 'DELETE', `/Users/${o3.userId}`)).status).toBe(204)
		await expectRevoked(ws, t3, o3, 'creator_left')

		const o4 = await newPerson(ws, 'owner')
		const t4 = await tokenOf(ws, o4, 'Okta 4')
		const removed = await scim(t1, 'PATCH', '/Groups/owner', { schemas: [PATCH], Operations: [{ op: 'remove', path: `members[value eq "${o4.userId}"]` }] })
		expect(removed.status).toBe(200)
		await expectRevoked(ws, t4, o4, 'creator_not_owner')
		expect((await scim(t1, 'GET', '/Users')).status).toBe(200)
	})

	test('and a token whose creator is no longer an owner opens nothing, even had a path forgotten to revoke it', async () => {
		const { ws, o2, t2 } = await twoOwners()
		const deps = await testDeps()
		await deps.db
			.update(memberships)
			.set({ role: 'viewer' })
			.where(and(eq(memberships.workspaceId, ws.id), eq(memberships.userId, o2.userId)))
		await expectRefused(t2, o2)
	})
})

test('/settings/sso tells the remaining owners which token stopped with its creator, and why', async () => {
	const { ws, o1, o2 } = await twoOwners()
	const o3 = await newPerson(ws, 'owner')
	await tokenOf(ws, o3, 'Okta 3')
	const page = await signedIn(o1)
	await page.get('/people')
	await page.post(`/people/${o2.userId}/remove`)
	await page.post(`/people/${o3.userId}/role`, { role: 'recruiter' })
	const settings = await page.get('/settings/sso')
	const said = /<div class="notice notice-warn" role="status" id="scim-revoked-with-creator">([\s\S]*?)<\/div>/.exec(settings.text)?.[1] ?? ''
	expect(said).toContain('Create a new token below')
	expect(said).toMatch(new RegExp(`“Entra”[\\s\\S]*${escaped(o2.email)}\\), who created it, left the workspace`))
	expect(said).toMatch(new RegExp(`“Okta 3”[\\s\\S]*${escaped(o3.email)}\\), who created it, is no longer an owner`))
	// The revoked tokens are no longer listed as tokens to revoke.
	expect(settings.text).not.toContain('Revoke the SCIM token “Entra”')
})

test('upgrading: a token whose creator had already left, or was no longer an owner, is revoked with the reason; the others stay', async () => {
	const before = migrationsBefore(fileURLToPath(auth.migrations!), 'scim_token_revoked_reason')
	// The auth module as it was: scim_tokens without revoked_reason (start-up checks the declared columns).
	const oldTokens = pgTable('scim_tokens', { id: text('id').primaryKey() })
	const earlier = modules.map((m) =>
		m === auth
			? {
					...m,
					migrations: pathToFileURL(`${before.folder}/`),
					tables: { workspaces: tableAsItWas('workspaces'), users: tableAsItWas('users'), memberships, oldTokens },
				}
			: m,
	)
	const scratch = await emptyDatabase()
	try {
		const db = scratch.database
		await db.migrate(earlier)
		await db.rows(sql`insert into workspaces (id, slug, name) values ('ws_a', 'a', 'A')`)
		await db.rows(
			sql`insert into users (id, email, name, password_hash) values ('u_owner', 'o@a.test', 'O', 'x'), ('u_left', 'l@a.test', 'L', 'x'), ('u_demoted', 'd@a.test', 'D', 'x')`,
		)
		await db.rows(sql`insert into memberships (workspace_id, user_id, role, removed_at) values
			('ws_a', 'u_owner', 'owner', null), ('ws_a', 'u_left', 'owner', now()), ('ws_a', 'u_demoted', 'admin', null)`)
		await db.rows(sql`insert into scim_tokens (id, workspace_id, name, token_hash, last_four, created_by) values
			('scim_owner', 'ws_a', 'Okta', 'h1', 'aaaa', 'u_owner'), ('scim_left', 'ws_a', 'Entra', 'h2', 'bbbb', 'u_left'),
			('scim_demoted', 'ws_a', 'Okta 2', 'h3', 'cccc', 'u_demoted'), ('scim_operator', 'ws_a', 'CLI', 'h4', 'dddd', null)`)
		await db.migrate(modules)
		const rows = await db.db
			.select({ id: scimTokens.id, reason: scimTokens.revokedReason, revoked: sql<boolean>`${scimTokens.revokedAt} is not null` })
			.from(scimTokens)
			.orderBy(scimTokens.id)
		expect(rows).toEqual([
			{ id: 'scim_demoted', reason: 'creator_not_owner', revoked: true },
			{ id: 'scim_left', reason: 'creator_left', revoked: true },
			{ id: 'scim_operator', reason: null, revoked: false },
			{ id: 'scim_owner', reason: null, revoked: false },
		])
	} finally {
		await scratch.close()
		before.remove()
	}
})
