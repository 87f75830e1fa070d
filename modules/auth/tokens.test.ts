/**
 * Personal tokens and leaving a workspace: the token's shape, that only its hash is stored, that it
 * is shown once, who sees and revokes which tokens, that revocation and leaving take effect on the
 * very next MCP request, "last used", the CLI commands, and the people page.
 */
import { afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { allCommands, parseCommand, runCommand } from '../../core/cli.ts'
import { credentialType, hashSecret, newCredential } from '../../core/credentials.ts'
import { AppError } from '../../core/errors.ts'
import { clock, newPerson, newPersonWithToken, newWorkspace, testDeps, usingPostgres } from '../../tests/helpers.ts'
import { listTools, rpc } from '../../tests/mcp/rpc.ts'
import { portalApp, signedIn, type PortalClient } from '../../tests/portal.ts'
import { operatorActor, personActor, removePerson } from './index.ts'
import { personalTokens } from './table.ts'

beforeAll(async () => {
	await portalApp()
}, 30_000)
afterEach(() => clock.reset())

/** The token shown on the page right after creating it. */
const shownToken = (html: string) => html.match(/<code id="new-token">(bl_pat_[0-9A-Za-z]+)<\/code>/)?.[1]
const createOnPage = async (client: PortalClient, name: string) => {
	const res = await client.submit('/settings/api/tokens', { name })
	expect(res.redirectedTo).toBe('/settings/api')
	expect(res.status).toBe(200)
	const token = shownToken(res.text)
	expect(token).toBeDefined()
	return { res, token: token! }
}
const tokenRow = async (token: string) => {
	const deps = await testDeps()
	return (
		await deps.db
			.select()
			.from(personalTokens)
			.where(eq(personalTokens.tokenHash, hashSecret(token)))
	)[0]
}
/** The error shown beside the token name, and the name the field holds (the page escapes both). */
const fieldError = (html: string) => html.match(/<span class="field-error" id="token-name-error">([^<]*)<\/span>/)?.[1]
const fromHtml = (s: string) => s.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&')
const typedName = (html: string) => {
	const value = html.match(/<input id="token-name" name="name" type="text" value="([^"]*)"/)?.[1]
	return value === undefined ? undefined : fromHtml(value)
}
const mcpStatus = async (token: string) => (await rpc(token, 'tools/list')).status
const runCli = async (argv: string[]) => {
	const deps = await testDeps()
	const { command, options, json } = parseCommand(allCommands(deps), argv)
	const out = await runCommand(deps, command.name, options)
	return { ...out, printed: json ? JSON.stringify(out.json) : undefined }
}

describe('the token itself', () => {
	test('carries the bl_pat_ prefix and a checksum; a mistyped token is refused', async () => {
		const ws = await newWorkspace()
		const { token } = await newPersonWithToken(ws, 'recruiter')
		expect(token).toMatch(/^bl_pat_[0-9A-Za-z]{36}$/)
		expect(credentialType(token)).toBe('pat')
		expect(await mcpStatus(token)).toBe(200)
		// One character changed: the checksum no longer matches.
		const last = token.at(-1)!
		const typo = token.slice(0, -1) + (last === 'a' ? 'b' : 'a')
		expect(credentialType(typo)).toBeNull()
		expect(await mcpStatus(typo)).toBe(401)
		// Well formed with a good checksum, but never issued.
		expect(await mcpStatus(newCredential('pat'))).toBe(401)
	})

	test('is stored only as its SHA-256; no column holds the token', async () => {
		const ws = await newWorkspace()
		const { token, tokenId } = await newPersonWithToken(ws, 'viewer')
		const row = await tokenRow(token)
		expect(row?.id).toBe(tokenId)
		expect(row!.tokenHash).toBe(hashSecret(token))
		const secretPart = token.slice('bl_pat_'.length, -4)
		for (const [column, value] of Object.entries(row!)) expect({ column, leaks: String(value).includes(secretPart) }).toEqual({ column, leaks: false })
	})

	test('is shown once, with a copy button; the list then shows its name, owner, dates and last four characters only', async () => {
		const ws = await newWorkspace()
		const person = await newPerson(ws, 'recruiter')
		const client = await signedIn(person)
		const { res, token } = await createOnPage(client, 'Claude on my laptop')
		expect(res.text).toContain('Token “Claude on my laptop” created')
		// Shown by app.js when it runs (core/ui.ts scriptButton): without the script it could do nothing.
		expect(res.text).toContain('<button type="button" class="secondary" data-needs-script data-copy="new-token" hidden>Copy</button>')
		expect(res.text).toMatch(/shown only once/)

		const again = await client.get('/settings/api')
		expect(again.status).toBe(200)
		expect(again.text).not.toContain(token)
		expect(again.text).not.toContain('data-copy="new-token"')
		expect(again.text).toContain('Claude on my laptop')
		expect(again.text).toContain(`…${token.slice(-4)}`)
		expect(again.text).toContain('recruiter person')
		expect(again.text).toMatch(/>Name<\/th><th scope="col">Owner<\/th><th scope="col">Created<\/th><th scope="col">Last used<\/th>/)
		// The token works.
		expect(await mcpStatus(token)).toBe(200)
	})

	test('creating answers with a redirect, so reloading never makes a second token; the token crosses it only for this session', async () => {
		const ws = await newWorkspace()
		const person = await newPerson(ws, 'recruiter')
		const client = await signedIn(person)
		const other = await signedIn(person)
		const posted = await client.post('/settings/api/tokens', { name: 'Reload safe' })
		expect(posted.status).toBe(303)
		expect(posted.headers.get('location')).toBe('/settings/api')
		expect(posted.text).not.toContain('bl_pat_')
		const sealed = posted.setCookies.find((l) => l.startsWith('bl_new_token='))!
		expect(sealed).toMatch(/; Path=\/settings\/api/i)
		expect(sealed).toMatch(/; HttpOnly/i)
		expect(sealed).toMatch(/; Max-Age=120/i)
		const value = client.cookies.get('bl_new_token')!
		expect(value).not.toContain('bl_pat_')
		expect(atob(value.replace(/-/g, '+').replace(/_/g, '/'))).not.toContain('bl_pat_')

		// Another session of the same person cannot open it; nor can a tampered one be opened.
		other.cookies.set('bl_new_token', value)
		const stolen = await other.get('/settings/api')
		expect(stolen.status).toBe(200)
		expect(shownToken(stolen.text)).toBeUndefined()
		other.cookies.set('bl_new_token', value.slice(0, -2) + (value.endsWith('AA') ? 'BB' : 'AA'))
		expect(shownToken((await other.get('/settings/api')).text)).toBeUndefined()
		other.cookies.set('bl_new_token', 'not-base64-!!')
		expect((await other.get('/settings/api')).status).toBe(200)

		const shown = await client.get('/settings/api')
		const token = shownToken(shown.text)!
		expect(token).toMatch(/^bl_pat_/)
		expect(shown.setCookies.find((l) => l.startsWith('bl_new_token='))).toMatch(/Max-Age=0/i)
		// Reloading the page: the token is gone and no second token exists.
		const reloaded = await client.get('/settings/api')
		expect(shownToken(reloaded.text)).toBeUndefined()
		const deps = await testDeps()
		expect(await deps.db.select().from(personalTokens).where(eq(personalTokens.workspaceId, ws.id))).toHaveLength(1)
		// An old sealed cookie (after two minutes) shows nothing.
		const late = await client.post('/settings/api/tokens', { name: 'Too late' })
		expect(late.status).toBe(303)
		clock.advance(3 * 60_000)
		expect(shownToken((await client.get('/settings/api')).text)).toBeUndefined()
	})

	test('shown once is recorded by the server: the sealed cookie sent again, even within its two minutes, shows nothing (issue 26)', async () => {
		const ws = await newWorkspace()
		const client = await signedIn(await newPerson(ws, 'recruiter'))
		expect((await client.post('/settings/api/tokens', { name: 'Replayed' })).status).toBe(303)
		const sealed = client.cookies.get('bl_new_token')!
		const shown = await client.get('/settings/api')
		expect(shownToken(shown.text)).toMatch(/^bl_pat_/)
		// The browser was told to forget it; whoever kept a copy sends it again.
		for (let i = 0; i < 2; i++) {
			client.cookies.set('bl_new_token', sealed)
			const replayed = await client.get('/settings/api')
			expect(replayed.status).toBe(200)
			expect(shownToken(replayed.text)).toBeUndefined()
		}
	})

	test('a name is required and at most 80 characters; the error is shown beside the field, the name typed kept', async () => {
		const ws = await newWorkspace()
		const client = await signedIn(await newPerson(ws, 'recruiter'))
		for (const name of ['', '   ', '\u200b', 'x'.repeat(81)]) {
			const res = await client.post('/settings/api/tokens', { name })
			expect(res.status).toBe(422)
			expect(fieldError(res.text)).toBe('Token name must be 1 to 80 characters.')
			expect(typedName(res.text)).toBe(name)
			expect(shownToken(res.text)).toBeUndefined()
		}
		expect((await client.submit('/settings/api/tokens', { name: '😀'.repeat(80) })).status).toBe(200)
	})

	test('a name is one line of visible text: line breaks and control characters are refused, direction controls dropped', async () => {
		const ws = await newWorkspace()
		const client = await signedIn(await newPerson(ws, 'recruiter'))
		for (const name of ['Lap\u202etop\r\n[admin] evil\u200b', 'red\u001b[31m', 'tab\there']) {
			const res = await client.post('/settings/api/tokens', { name })
			expect(res.status).toBe(422)
			expect(fieldError(res.text)).toBe('Token name must be one line, without control characters.')
			expect(typedName(res.text)).toBe(name)
		}
		const { res, token } = await createOnPage(client, 'Lap\u202etop\u200b  ok')
		expect(res.text).toContain('Token “Laptop ok” created.')
		expect((await tokenRow(token))?.name).toBe('Laptop ok')
		// The CLI and any other caller meet the same rule in the service.
		const admin = await newPerson(ws, 'admin')
		const refused = await runCli(['token', 'create', '--workspace', ws.slug, '--email', admin.email, '--name', 'cli\u202eevil\r\nX']).catch((e: AppError) => e)
		expect(refused).toBeInstanceOf(AppError)
		expect((refused as AppError).fields).toEqual([{ field: 'name', message: 'must be one line, without control characters' }])
	})
})

describe('who sees and revokes which tokens', () => {
	test('owners and admins see and revoke everyone’s tokens; other people only their own', async () => {
		const ws = await newWorkspace()
		const alice = await newPerson(ws, 'recruiter')
		const bob = await newPerson(ws, 'hiring_manager')
		const admin = await newPerson(ws, 'admin')
		const owner = await newPerson(ws, 'owner')
		const [aliceC, bobC, adminC, ownerC] = await Promise.all([alice, bob, admin, owner].map((p) => signedIn(p)))
		const aliceToken = (await createOnPage(aliceC!, 'Alice token')).token
		const bobToken = (await createOnPage(bobC!, 'Bob token')).token
		const adminToken = (await createOnPage(adminC!, 'Admin token')).token
		const idOf = async (t: string) => (await tokenRow(t))!.id

		const aliceList = (await aliceC!.get('/settings/api')).text
		expect(aliceList).toContain('Your personal tokens')
		expect(aliceList).toContain('Alice token')
		expect(aliceList).not.toContain('Bob token')
		expect(aliceList).not.toContain('Admin token')
		for (const c of [adminC!, ownerC!]) {
			const list = (await c.get('/settings/api')).text
			expect(list).toContain('Personal tokens in this workspace')
			for (const name of ['Alice token', 'Bob token', 'Admin token']) expect(list).toContain(name)
			expect(list).not.toContain(aliceToken)
		}

		// Alice cannot revoke Bob's token: answered like an absent token, and it keeps working.
		const refused = await aliceC!.post(`/settings/api/tokens/${await idOf(bobToken)}/revoke`)
		expect(refused.status).toBe(404)
		const absent = await aliceC!.post('/settings/api/tokens/pat_doesnotexist/revoke')
		expect(absent.status).toBe(404)
		expect(refused.text.replace(/<input type="hidden" name="csrf"[^>]*>/g, '')).toBe(absent.text.replace(/<input type="hidden" name="csrf"[^>]*>/g, ''))
		expect(await mcpStatus(bobToken)).toBe(200)

		// Alice revokes her own; the admin revokes Bob's; the owner revokes the admin's.
		expect((await aliceC!.submit(`/settings/api/tokens/${await idOf(aliceToken)}/revoke`)).status).toBe(200)
		const byAdmin = await adminC!.submit(`/settings/api/tokens/${await idOf(bobToken)}/revoke`)
		expect(byAdmin.status).toBe(200)
		expect(byAdmin.text).toContain('The token was revoked')
		expect(byAdmin.text).not.toContain('Bob token')
		expect((await ownerC!.submit(`/settings/api/tokens/${await idOf(adminToken)}/revoke`)).status).toBe(200)
		for (const t of [aliceToken, bobToken, adminToken]) expect(await mcpStatus(t)).toBe(401)
		// Revoking twice is answered like an absent token.
		expect((await ownerC!.post(`/settings/api/tokens/${await idOf(adminToken)}/revoke`)).status).toBe(404)
		// Bob's list is now empty.
		expect((await bobC!.get('/settings/api')).text).toContain('No personal tokens yet.')
	})

	test('tokens of another workspace are neither listed nor revocable', async () => {
		const wsA = await newWorkspace()
		const wsB = await newWorkspace()
		const ownerA = await newPerson(wsA, 'owner')
		const other = await newPersonWithToken(wsB, 'recruiter')
		const client = await signedIn(ownerA)
		expect((await client.get('/settings/api')).text).not.toContain('recruiter token')
		expect((await client.post(`/settings/api/tokens/${other.tokenId}/revoke`)).status).toBe(404)
		expect(await mcpStatus(other.token)).toBe(200)
	})
})

describe('revocation and leaving take effect on the very next request', () => {
	test('a revoked token gets 401 on the next MCP request, with the resource metadata challenge', async () => {
		const ws = await newWorkspace()
		const person = await newPerson(ws, 'recruiter')
		const client = await signedIn(person)
		const { token } = await createOnPage(client, 'Short lived')
		expect((await listTools(token)).length).toBeGreaterThan(0)
		const id = (await tokenRow(token))!.id
		expect((await client.submit(`/settings/api/tokens/${id}/revoke`)).status).toBe(200)
		const next = await rpc(token, 'tools/list')
		expect(next.status).toBe(401)
		expect(next.headers.get('www-authenticate')).toContain('resource_metadata="http://localhost:3000/.well-known/oauth-protected-resource"')
		expect(next.headers.get('www-authenticate')).toContain('error="invalid_token"')
	})

	test('`user remove` in the CLI stops the person’s sessions and tokens at once', async () => {
		const ws = await newWorkspace()
		const person = await newPersonWithToken(ws, 'recruiter')
		const client = await signedIn(person)
		expect(await mcpStatus(person.token)).toBe(200)
		const out = await runCli(['user', 'remove', '--workspace', ws.slug, '--email', person.email, '--json'])
		expect(JSON.parse(out.printed!)).toEqual({ userId: expect.stringMatching(/^usr_/), removed: true })
		expect(await mcpStatus(person.token)).toBe(401)
		const page = await client.get('/portal')
		expect(page.status).toBe(303)
		expect(page.headers.get('location')).toStartWith('/sign-in')
		// They cannot sign in to it again, and their tokens are no longer listed for admins.
		const admin = await signedIn(await newPerson(ws, 'admin'))
		expect((await admin.get('/settings/api')).text).not.toContain('recruiter token')
		await expect(signedIn(person)).rejects.toThrow(/sign-in failed/)
	})

	test('the people page removes a person; their sessions and tokens stop at once', async () => {
		const ws = await newWorkspace()
		const admin = await newPerson(ws, 'admin')
		const leaver = await newPersonWithToken(ws, 'hiring_manager')
		const leaverPortal = await signedIn(leaver)
		const adminPortal = await signedIn(admin)
		const people = await adminPortal.get('/people')
		expect(people.status).toBe(200)
		expect(people.text.replaceAll('<wbr>', '')).toContain(leaver.email)
		const deps = await testDeps()
		const { userId } = await personActor(deps, ws.slug, leaver.email)
		expect(people.text).toContain(`action="/people/${userId}/remove"`)
		// Post/Redirect/Get: reloading the answer never repeats the removal.
		const posted = await adminPortal.post(`/people/${userId}/remove`)
		expect(posted.status).toBe(303)
		expect(posted.headers.get('location')).toBe('/people?done=removed')
		const removed = await adminPortal.get('/people?done=removed')
		expect(removed.text).toContain('The person was removed')
		expect(removed.text.replaceAll('<wbr>', '')).not.toContain(leaver.email)
		expect(await mcpStatus(leaver.token)).toBe(401)
		expect((await leaverPortal.get('/settings/api')).status).toBe(303)
		// A form from the removed session is refused too (no session any more).
		expect((await leaverPortal.post('/settings/api/tokens', { name: 'after leaving' })).status).toBe(401)
	})

	test('people who may not manage people get 403 on the page and on its forms', async () => {
		const ws = await newWorkspace()
		const target = await newPersonWithToken(ws, 'viewer')
		const deps = await testDeps()
		const { userId } = await personActor(deps, ws.slug, target.email)
		for (const role of ['recruiter', 'hiring_manager', 'viewer']) {
			const client = await signedIn(await newPerson(ws, role))
			expect((await client.get('/people')).status).toBe(403)
			expect((await client.post(`/people/${userId}/remove`)).status).toBe(403)
		}
		expect(await mcpStatus(target.token)).toBe(200)
	})

	test('the last owner cannot leave, through the CLI or the people page', async () => {
		const ws = await newWorkspace()
		const owner = await newPersonWithToken(ws, 'owner')
		const admin = await newPerson(ws, 'admin')
		let error: unknown
		try {
			await runCli(['user', 'remove', '--workspace', ws.slug, '--email', owner.email, '--json'])
		} catch (e) {
			error = e
		}
		expect(error).toBeInstanceOf(AppError)
		expect((error as AppError).code).toBe('CONFLICT')
		expect((error as AppError).message).toMatch(/last owner/i)

		const deps = await testDeps()
		const { userId } = await personActor(deps, ws.slug, owner.email)
		// An admin may not remove an owner at all (people-invitations.test.ts has every such path).
		const adminPortal = await signedIn(admin)
		await adminPortal.get('/people')
		const res = await adminPortal.post(`/people/${userId}/remove`)
		expect(res.status).toBe(422)
		expect(res.text).toMatch(/Only an owner can make, demote or remove an owner/)
		expect(await mcpStatus(owner.token)).toBe(200)
		// The owner's own row has no remove button, and posting the form anyway is refused.
		const ownerPortal = await signedIn(owner)
		const ownPage = await ownerPortal.get('/people')
		expect(ownPage.text).not.toContain(`action="/people/${userId}/remove"`)
		const own = await ownerPortal.post(`/people/${userId}/remove`)
		expect(own.status).toBe(422)
		expect(own.text).toMatch(/The last owner cannot leave/)
		expect(await mcpStatus(owner.token)).toBe(200)

		// With a second owner, one of them may leave.
		const second = await newPerson(ws, 'owner')
		await runCli(['user', 'remove', '--workspace', ws.slug, '--email', owner.email])
		expect(await mcpStatus(owner.token)).toBe(401)
		await expect(removePerson(deps, operatorActor(ws), ws, { email: second.email })).rejects.toThrow(/last owner/i)
	})

	test('two owners removing each other at the same time leave one owner', async () => {
		const ws = await newWorkspace()
		const a = await newPerson(ws, 'owner')
		const b = await newPerson(ws, 'owner')
		const deps = await testDeps()
		const [actorA, actorB] = await Promise.all([personActor(deps, ws.slug, a.email), personActor(deps, ws.slug, b.email)])
		const results = await Promise.allSettled([removePerson(deps, actorA, ws, { email: b.email }), removePerson(deps, actorB, ws, { email: a.email })])
		expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
		const remaining = (await Promise.allSettled([personActor(deps, ws.slug, a.email), personActor(deps, ws.slug, b.email)])).filter(
			(r) => r.status === 'fulfilled',
		)
		expect(remaining).toHaveLength(1)
	})
})

describe('last used', () => {
	test('is recorded when the token is used, and shown on the list', async () => {
		const ws = await newWorkspace()
		const person = await newPerson(ws, 'recruiter')
		const client = await signedIn(person)
		const { token } = await createOnPage(client, 'Usage tracked')
		expect((await tokenRow(token))!.lastUsedAt).toBeNull()
		expect((await client.get('/settings/api')).text).toMatch(
			/Usage tracked[\s\S]*?<td data-label="Last used"><div class="cell">never<\/div><\/td>\s*<td data-label="Actions"><div class="cell"><form/,
		)

		await listTools(token)
		const firstUse = await waitFor(async () => (await tokenRow(token))!.lastUsedAt)
		expect(Math.abs(firstUse.getTime() - clock.now().getTime())).toBeLessThan(5_000)
		const list = (await client.get('/settings/api')).text
		expect(list).toContain(`<time datetime="${firstUse.toISOString()}">`)

		// Used again later: the time moves on (it is kept to the minute).
		clock.advance(5 * 60_000)
		await listTools(token)
		const secondUse = await waitFor(async () => {
			const at = (await tokenRow(token))!.lastUsedAt
			return at && at.getTime() > firstUse.getTime() ? at : null
		})
		expect(secondUse.getTime() - firstUse.getTime()).toBeGreaterThanOrEqual(5 * 60_000 - 5_000)
	})
})

describe('the CLI', () => {
	test('`token create --workspace S --email E --name N --json` prints {"tokenId","token"}; the token works and is logged under its name', async () => {
		const ws = await newWorkspace()
		const person = await newPerson(ws, 'admin')
		const out = await runCli(['token', 'create', '--workspace', ws.slug, '--email', person.email.toUpperCase(), '--name', 'CI bot', '--json'])
		const printed = JSON.parse(out.printed!)
		expect(Object.keys(printed).sort()).toEqual(['token', 'tokenId'])
		expect(printed.token).toMatch(/^bl_pat_/)
		expect(printed.tokenId).toMatch(/^pat_/)
		expect(await mcpStatus(printed.token)).toBe(200)
		const row = await tokenRow(printed.token)
		expect(row).toMatchObject({ id: printed.tokenId, name: 'CI bot' })
		// Someone outside the workspace gets an error naming the problem.
		await expect(runCli(['token', 'create', '--workspace', ws.slug, '--email', 'nobody@example.test', '--name', 'x'])).rejects.toThrow(/not in the workspace/)
	})

	test.if(usingPostgres())('the real CLI process creates a token and removes a person (PostgreSQL)', async () => {
		const ws = await newWorkspace()
		const person = await newPerson(ws, 'recruiter')
		await newPerson(ws, 'owner')
		const cli = (...args: string[]) => {
			const p = Bun.spawnSync([process.execPath, 'core/cli.ts', ...args], { cwd: `${import.meta.dir}/../..`, env: { ...process.env, LOG_LEVEL: 'warn' } })
			return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() }
		}
		const created = cli('token', 'create', '--workspace', ws.slug, '--email', person.email, '--name', 'From the shell', '--json')
		expect(created.code).toBe(0)
		const json = JSON.parse(created.out.trim().split('\n').at(-1)!)
		expect(Object.keys(json).sort()).toEqual(['token', 'tokenId'])
		expect(await mcpStatus(json.token)).toBe(200)
		const removed = cli('user', 'remove', '--workspace', ws.slug, '--email', person.email, '--json')
		expect(removed.code).toBe(0)
		expect(await mcpStatus(json.token)).toBe(401)
	})
})

async function waitFor<T>(read: () => Promise<T | null | undefined>, ms = 3_000): Promise<T> {
	const until = Date.now() + ms
	for (;;) {
		const value = await read()
		if (value) return value
		if (Date.now() > until) throw new Error('timed out waiting')
		await Bun.sleep(20)
	}
}
