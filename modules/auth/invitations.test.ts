/**
 * Issue 16, item 3: nobody is put in a workspace without their consent. Adding an e-mail address on
 * the people page makes an invitation whether or not the address has an account, answers exactly
 * alike in both cases and shows nothing of the account; only the person, signed in, accepts (or
 * declines); the operator's CLI may still add an account directly.
 */
import { afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { allCommands, parseCommand, runCommand } from '../../core/cli.ts'
import { AppError } from '../../core/errors.ts'
import { clock, newPerson, newWorkspace, testDeps, unique } from '../../tests/helpers.ts'
import { portalApp, signedIn, uniqueAddress, PortalClient } from '../../tests/portal.ts'
import { activity } from '../activity/table.ts'
import { addPerson, createWorkspace, operatorActor, personActor, removePerson } from './index.ts'
import { outbox } from '../outbox/table.ts'
import { textToSend } from '../outbox/index.ts'
import { requestPasswordReset } from './password-reset.ts'
import { invitations, memberships, personalTokens, users } from './table.ts'

setDefaultTimeout(30_000)
beforeAll(async () => {
	await portalApp()
}, 30_000)
afterEach(() => clock.reset())

/** A workspace whose slug sorts first (`aa-…`) or last (`zz-…`) among the test's workspaces. */
const workspaceSorting = async (prefix: 'aa' | 'zz') => createWorkspace(await testDeps(), { slug: `${prefix}-${unique()}`, name: `Workspace ${prefix}` })
/** A person with a real name of their own (the name the people page must not reveal before they accept). */
const personNamed = async (ws: { id: string; slug: string }, name: string, role = 'recruiter') => {
	const email = `${unique('p')}@example.test`
	const password = 'correct horse battery'
	const { userId } = await addPerson(await testDeps(), operatorActor(ws), ws, { email, name, role, password })
	return { userId, email, password }
}
const isMember = async (ws: { id: string }, userId: string) => {
	const deps = await testDeps()
	const [row] = await deps.db
		.select({ removedAt: memberships.removedAt })
		.from(memberships)
		.where(and(eq(memberships.workspaceId, ws.id), eq(memberships.userId, userId)))
	return !!row && !row.removedAt
}
/** The workspace the home page says the session is in. */
const signedInTo = (home: string) => home.match(/[Ss]igned in to <strong>([^<]*)<\/strong>/)?.[1]
const invitationIds = (html: string) => [...html.matchAll(/action="(?:\/sign-in)?\/invitations\/(inv_[a-z2-7]+)\/accept"/g)].map((m) => m[1]!)
const errorOf = (html: string) => html.match(/<p class="error" role="alert">([^<]*)<\/p>/)?.[1]
const activityOf = async (ws: { id: string }, action: string) =>
	(await testDeps()).db
		.select()
		.from(activity)
		.where(and(eq(activity.workspaceId, ws.id), eq(activity.action, action)))
async function admin(ws: { id: string; slug: string; name?: string }) {
	const client = await signedIn(await newPerson(ws as never, 'admin'))
	await client.get('/people')
	return client
}

describe('adding the e-mail of a person who has an account elsewhere', () => {
	test('does not put them in the workspace: their next sign-in lands in their own workspace, as their own role, and their tokens are made there', async () => {
		const home = await workspaceSorting('zz')
		const victim = await personNamed(home, 'Victoria Realname', 'recruiter')
		// The other workspace's slug sorts first: a person in both used to land in it.
		const other = await workspaceSorting('aa')
		const attacker = await admin(other)
		const added = await attacker.submit('/people', { name: 'Typed By Admin', email: victim.email, role: 'admin', password: 'chosen by the admin' })
		expect(added.redirectedTo).toBe('/people?done=added')
		expect(added.text).toContain('The person was added.')
		expect(added.text).not.toContain('Victoria Realname')
		expect(await isMember(other, victim.userId)).toBe(false)

		const client = await signedIn(victim)
		const page = await client.get('/portal')
		expect(signedInTo(page.text)).toBe(home.slug)
		expect(page.text).toContain('as recruiter')
		expect(page.text).toContain('href="/invitations"')
		const created = await client.submit('/settings/api/tokens', { name: 'after the probe' })
		expect(created.status).toBe(200)
		const deps = await testDeps()
		const tokens = await deps.db.select({ workspaceId: personalTokens.workspaceId }).from(personalTokens).where(eq(personalTokens.userId, victim.userId))
		expect(tokens.map((t) => t.workspaceId)).toEqual([home.id])
		// The other workspace's people page never shows the account's own name.
		expect((await attacker.get('/people')).text).not.toContain('Victoria Realname')
		expect((await attacker.get('/activity')).text).not.toContain('Victoria Realname')
	})

	test('answers exactly as for an address without an account: the same redirect, words, row, refusal when repeated and log line', async () => {
		const ws = await newWorkspace()
		const client = await admin(ws)
		const elsewhere = await newWorkspace()
		const existing = await personNamed(elsewhere, 'Existing Realname')
		const fresh = `${unique('n')}@example.test`
		const add = (email: string, name: string) => client.submit('/people', { name, email, role: 'viewer', password: 'temporary password' })
		const first = await add(existing.email, 'Typed Name')
		const second = await add(fresh, 'Typed Name')
		expect([first.status, first.redirectedTo]).toEqual([second.status, second.redirectedTo])
		expect(first.redirectedTo).toBe('/people?done=added')

		// Each address's row, with the address itself and the invitation's id and dates taken out.
		// Addresses carry break points (<wbr>) on the page; the row is compared as read.
		const page = (await client.get('/people')).text.replaceAll('<wbr>', '')
		expect(page).not.toContain('Existing Realname')
		const rowOf = (email: string) => {
			const row = page.split('<tr').find((r) => r.includes(`>${email}<`))
			expect(row).toBeDefined()
			return row!
				.replace(email, 'EMAIL')
				.replace(/inv_[a-z2-7]+/g, 'ID')
				.replace(/datetime="[^"]*"/g, 'datetime')
				.replace(/<\/tbody>[\s\S]*$/, '')
		}
		expect(rowOf(existing.email)).toBe(rowOf(fresh))
		expect(rowOf(fresh)).toContain('>Typed Name<')
		expect(rowOf(fresh)).toContain('invited')

		// Adding either again is refused with the same words.
		const again = [
			await client.post('/people', { name: 'Typed Name', email: existing.email, role: 'viewer', password: 'temporary password' }),
			await client.post('/people', { name: 'Typed Name', email: fresh, role: 'viewer', password: 'temporary password' }),
		]
		expect(again.map((r) => r.status)).toEqual([422, 422])
		expect(errorOf(again[0]!.text)!.replace(existing.email, 'EMAIL')).toBe(errorOf(again[1]!.text)!.replace(fresh, 'EMAIL'))

		// The log says the same of both: the address and role, never an account.
		const lines = await activityOf(ws, 'person.invited')
		expect(lines).toHaveLength(2)
		const shape = (l: (typeof lines)[number]) => ({ targetType: l.targetType, detail: { ...(l.detail as object), email: 'EMAIL' } })
		expect(shape(lines[0]!)).toEqual(shape(lines[1]!))
		expect(lines.every((l) => l.targetType === 'invitation')).toBe(true)
		const deps = await testDeps()
		expect(await deps.db.select().from(memberships).where(eq(memberships.workspaceId, ws.id))).toHaveLength(1)
	})
})

describe('the invited person decides', () => {
	test('sees the invitation in the portal, and only accepting makes them a member, with the invited role', async () => {
		const home = await newWorkspace()
		const person = await personNamed(home, 'Jamie Accepting')
		const other = await newWorkspace()
		const client = await admin(other)
		await client.submit('/people', { name: 'Jamie', email: person.email, role: 'hiring_manager', password: 'temporary password' })

		const portal = await signedIn(person)
		expect((await portal.get('/portal')).text).toContain('An invitation to another workspace is waiting for you.')
		const list = await portal.get('/invitations')
		expect(list.text).toContain(other.slug)
		expect(list.text).toContain('as hiring manager')
		const [id] = invitationIds(list.text)
		expect(id).toBeDefined()
		expect(await isMember(other, person.userId)).toBe(false)

		const accepted = await portal.submit(`/invitations/${id}/accept`)
		expect(accepted.redirectedTo).toBe('/invitations?done=accepted')
		expect(accepted.text).toContain('You joined the workspace')
		expect(accepted.text).toContain('Switch workspace')
		const deps = await testDeps()
		expect((await personActor(deps, other.slug, person.email)).role).toBe('hiring_manager')
		// Now a member, shown by their own name; the log says who accepted.
		expect((await client.get('/people')).text).toContain('Jamie Accepting')
		const lines = await activityOf(other, 'invitation.accepted')
		expect(lines.map((l) => [l.actorUserId, l.targetId])).toEqual([[person.userId, id!]])
		// Accepting again finds nothing.
		const twice = await portal.post(`/invitations/${id}/accept`)
		expect(errorOf(twice.text)).toMatch(/No such invitation/)
	})

	test('declining leaves them out, and the workspace learns nothing of the account (not its name, not its id)', async () => {
		const home = await newWorkspace()
		const person = await personNamed(home, 'Dana Declining')
		const other = await newWorkspace()
		const client = await admin(other)
		await client.submit('/people', { name: 'Dana', email: person.email, role: 'recruiter', password: 'temporary password' })
		const portal = await signedIn(person)
		const [id] = invitationIds((await portal.get('/invitations')).text)
		const declined = await portal.submit(`/invitations/${id}/decline`)
		expect(declined.redirectedTo).toBe('/invitations?done=declined')
		expect(declined.text).toContain('No invitation is waiting for you.')
		expect(await isMember(other, person.userId)).toBe(false)
		const [line] = await activityOf(other, 'invitation.declined')
		expect(line!.actorName).toBe(person.email)
		expect(line!.actorUserId).toBeNull()
		const page = (await client.get('/people')).text
		expect(page).not.toContain(person.email)
		expect((await client.get('/activity')).text).not.toContain('Dana Declining')
	})

	test('only the person it is addressed to can answer it, while it is open and not withdrawn', async () => {
		const ws = await newWorkspace()
		const client = await admin(ws)
		const elsewhere = await newWorkspace()
		const invited = await personNamed(elsewhere, 'Invited One')
		const stranger = await personNamed(elsewhere, 'Stranger')
		await client.submit('/people', { name: 'Invited', email: invited.email, role: 'viewer', password: 'temporary password' })
		const [id] = invitationIds((await (await signedIn(invited)).get('/invitations')).text)

		const strangerPortal = await signedIn(stranger)
		expect(invitationIds((await strangerPortal.get('/invitations')).text)).toEqual([])
		for (const answer of ['accept', 'decline']) {
			const res = await strangerPortal.post(`/invitations/${id}/${answer}`)
			expect(res.status).toBe(422)
			expect(errorOf(res.text)).toMatch(/No such invitation/)
		}
		expect(await isMember(ws, stranger.userId)).toBe(false)

		// After 14 days it can no longer be accepted.
		const invitedPortal = await signedIn(invited)
		clock.advance(15 * 86_400_000)
		const late = await invitedPortal.post(`/invitations/${id}/accept`)
		expect(errorOf(late.text)).toMatch(/expired/)
		expect(await isMember(ws, invited.userId)).toBe(false)
		clock.reset()

		// Withdrawn by the workspace: gone.
		const cancelled = await client.submit(`/people/invitations/${id}/cancel`)
		expect(cancelled.redirectedTo).toBe('/people?done=cancelled')
		expect(errorOf((await invitedPortal.post(`/invitations/${id}/accept`)).text)).toMatch(/No such invitation/)
		expect(await isMember(ws, invited.userId)).toBe(false)
	})
})

describe('joining through the sign-in page', () => {
	test('someone new signs in with the temporary password and joins by accepting the invitation', async () => {
		const ws = await newWorkspace()
		const client = await admin(ws)
		const email = `${unique('new')}@example.test`
		await client.submit('/people', { name: 'New Hire', email, role: 'recruiter', password: 'temporary password' })
		const { app } = await portalApp()
		const newcomer = new PortalClient(app, { address: uniqueAddress() })
		const answer = await newcomer.signIn(email, 'temporary password')
		expect(answer.status).toBe(303)
		expect(answer.headers.get('location')).toBe('/sign-in/workspace?next=%2Fportal')
		const choice = await newcomer.get('/sign-in/workspace?next=%2Fportal')
		expect(choice.text).toContain(ws.slug)
		const [id] = invitationIds(choice.text)
		const entered = await newcomer.post(`/sign-in/invitations/${id}/accept`, { next: '/portal' })
		expect(entered.status).toBe(303)
		expect(entered.headers.get('location')).toBe('/portal')
		// The temporary password is replaced first (passwords.test.ts), then the portal opens.
		expect((await newcomer.get('/portal')).headers.get('location')).toBe('/settings/password?next=%2Fportal')
		await newcomer.get('/settings/password?next=%2Fportal')
		expect(
			(
				await newcomer.post('/settings/password', {
					current: 'temporary password',
					password: 'my own passphrase',
					confirm: 'my own passphrase',
					next: '/portal',
				})
			).headers.get('location'),
		).toBe('/portal')
		expect(signedInTo((await newcomer.get('/portal')).text)).toBe(ws.slug)
		const deps = await testDeps()
		expect((await personActor(deps, ws.slug, email)).role).toBe('recruiter')
		expect((await client.get('/people')).text).not.toContain('(invited')
	})

	test('a person who left is added back only through an invitation; their old tokens stay revoked', async () => {
		const ws = await newWorkspace()
		const person = await personNamed(ws, 'Returning Person', 'recruiter')
		const deps = await testDeps()
		const { createPersonalToken } = await import('./index.ts')
		const { token } = await createPersonalToken(
			deps,
			{ ...(await personActor(deps, ws.slug, person.email)), credential: { kind: 'session', id: 'test', name: 'portal session' } },
			{ name: 'old token' },
		)
		await removePerson(deps, operatorActor(ws), ws, { email: person.email })
		const client = await admin(ws)
		const added = await client.submit('/people', { name: 'Returning', email: person.email, role: 'viewer', password: 'temporary password' })
		expect(added.redirectedTo).toBe('/people?done=added')
		expect(await isMember(ws, person.userId)).toBe(false)

		// In no workspace now: the sign-in offers the invitation.
		const { app } = await portalApp()
		const returning = new PortalClient(app, { address: uniqueAddress() })
		expect((await returning.signIn(person.email, person.password)).headers.get('location')).toStartWith('/sign-in/workspace')
		const [id] = invitationIds((await returning.get('/sign-in/workspace?next=%2Fportal')).text)
		expect((await returning.post(`/sign-in/invitations/${id}/accept`, { next: '/portal' })).status).toBe(303)
		expect((await personActor(deps, ws.slug, person.email)).role).toBe('viewer')
		const { rpc } = await import('../../tests/mcp/rpc.ts')
		expect((await rpc(token, 'tools/list')).status).toBe(401)
	})
})

describe('the operator CLI', () => {
	test('`user create` adds an existing account directly (the operator consents), keeping its password, and closes an invitation there', async () => {
		const home = await newWorkspace()
		const person = await personNamed(home, 'Cli Person')
		const ws = await newWorkspace()
		const client = await admin(ws)
		await client.submit('/people', { name: 'Cli', email: person.email, role: 'viewer', password: 'temporary password' })
		const deps = await testDeps()
		const { command, options } = parseCommand(allCommands(deps), [
			'user',
			'create',
			'--workspace',
			ws.slug,
			'--email',
			person.email,
			'--name',
			'Ignored',
			'--role',
			'recruiter',
			'--password',
			'another password',
		])
		const out = await runCommand(deps, command.name, options)
		expect(out.lines.join('\n')).toContain('existing account added; its password is unchanged')
		expect(await isMember(ws, person.userId)).toBe(true)
		const open = await deps.db
			.select()
			.from(invitations)
			.where(and(eq(invitations.workspaceId, ws.id), eq(invitations.status, 'pending')))
		expect(open).toHaveLength(0)
		// In two workspaces now: the sign-in asks which one.
		const { app } = await portalApp()
		const both = new PortalClient(app, { address: uniqueAddress() })
		expect((await both.signIn(person.email, person.password)).headers.get('location')).toStartWith('/sign-in/workspace')
		// People who are not the operator cannot add an account directly.
		await expect(
			addPerson(deps, await personActor(deps, ws.slug, person.email), ws, {
				email: `${unique()}@example.test`,
				name: 'X',
				role: 'viewer',
				password: 'temporary password',
			}),
		).rejects.toMatchObject({ code: 'FORBIDDEN' })
	})
})

describe('a person’s name and a workspace’s name are one line of visible text', () => {
	const cli = async (...argv: string[]) => {
		const deps = await testDeps()
		const { command, options } = parseCommand(allCommands(deps), argv)
		return runCommand(deps, command.name, options).catch((e: AppError) => e)
	}
	const fieldsOf = (out: unknown) => (out instanceof AppError ? out.fields : out)
	const ONE_LINE = { field: 'name', message: 'must be one line, without control characters' }

	test('the people page shows the problem beside the name and keeps what was typed (not the password)', async () => {
		const ws = await newWorkspace()
		const client = await admin(ws)
		const email = `${unique('p')}@example.test`
		for (const [name, problem] of [
			['Evil\nName\u202e', 'Name must be one line, without control characters.'],
			['\u200b', 'Name must be 1 to 120 characters.'],
		] as const) {
			const res = await client.post('/people', { name, email, role: 'viewer', password: 'kept nowhere 1234' })
			expect(res.status).toBe(422)
			expect(res.text).toContain(`<span class="field-error" id="p-name-error">${problem}</span>`)
			expect(res.text).toContain(`value="${email}"`)
			expect(res.text).toMatch(/<option value="viewer" selected>/)
			expect(res.text).not.toContain('kept nowhere 1234')
		}
		expect(await activityOf(ws, 'person.invited')).toHaveLength(0)
		// Direction controls and zero-width characters are dropped, the name kept.
		expect((await client.submit('/people', { name: 'Ana\u202e María\u200b', email, role: 'viewer', password: 'temporary password' })).status).toBe(200)
		const [invited] = await (await testDeps()).db.select({ name: invitations.name }).from(invitations).where(eq(invitations.email, email))
		expect(invited?.name).toBe('Ana María')
	})

	test('`user create` and `workspace create` refuse a name with a line break, an ESC or nothing visible', async () => {
		const ws = await newWorkspace()
		const user = (name: string) =>
			cli(
				'user',
				'create',
				'--workspace',
				ws.slug,
				'--email',
				`${unique()}@example.test`,
				'--name',
				name,
				'--role',
				'viewer',
				'--password',
				'temporary password',
			)
		expect(fieldsOf(await user('Evil\r\nName'))).toEqual([ONE_LINE])
		expect(fieldsOf(await user('red\u001b[31m'))).toEqual([ONE_LINE])
		expect(fieldsOf(await user('\u200b\u202e'))).toEqual([{ field: 'name', message: 'must be 1 to 120 characters' }])
		const workspace = (name: string) => cli('workspace', 'create', '--slug', unique('ws'), '--name', name)
		expect(fieldsOf(await workspace('Evil\nName\u202e'))).toEqual([ONE_LINE])
		expect(fieldsOf(await workspace('\u200b'))).toEqual([{ field: 'name', message: 'must be 1 to 120 characters' }])
		const made = await createWorkspace(await testDeps(), { slug: unique('ws'), name: 'Acme\u202e Staffing\u200b' })
		expect(made.name).toBe('Acme Staffing')
	})
})

describe('an account whose password a workspace set', () => {
	/** Whoever signed in with the temporary password (here the inviter) has chosen the next one. */
	async function takenOverByInviter(ws: { id: string; slug: string }) {
		const email = `${unique('held')}@example.test`
		await (await admin(ws)).submit('/people', { name: 'Held Account', email, role: 'viewer', password: 'temporary password' })
		const holder = await signedIn({ email, password: 'temporary password' }, { acceptInvitation: true })
		await holder.get('/settings/password?next=%2Fportal')
		await holder.post('/settings/password', {
			current: 'temporary password',
			password: 'the inviter’s choice',
			confirm: 'the inviter’s choice',
			next: '/portal',
		})
		return { email, holder }
	}
	/** The person sets a password through the reset link sent to the address (the mail shows the address is theirs). */
	async function resetThroughMail(email: string) {
		const deps = await testDeps({ BASE_URL: 'http://localhost:3000' })
		await (await requestPasswordReset(deps, { email, address: uniqueAddress() })).settled
		const [mail] = await deps.db.select().from(outbox).where(eq(outbox.to, email))
		const token = /\/sign-in\/reset-password\/(bl_pwr_[0-9A-Za-z]{36})/.exec(await textToSend(deps.secret, mail!))![1]
		const { app } = await portalApp()
		const visitor = new PortalClient(app, { address: uniqueAddress() })
		await visitor.get(`/sign-in/reset-password/${token}`)
		expect((await visitor.post(`/sign-in/reset-password/${token}`, { password: 'my very own password', confirm: 'my very own password' })).status).toBe(303)
	}

	test('joins another workspace only after the address’s own mail shows it is the person’s; the invitation waits meanwhile', async () => {
		const first = await newWorkspace()
		const { email, holder } = await takenOverByInviter(first)
		const other = await newWorkspace()
		await (await admin(other)).submit('/people', { name: 'Wanted Person', email, role: 'recruiter', password: 'temporary password' })
		const [id] = invitationIds((await holder.get('/invitations')).text)
		const refused = await holder.post(`/invitations/${id}/accept`)
		expect(errorOf(refused.text)).toContain(`Before you join another workspace, show that ${email} is yours`)
		expect(errorOf(refused.text)).toContain('The invitation stays open.')
		const [held] = await (await testDeps()).db.select({ status: invitations.status }).from(invitations).where(eq(invitations.id, id!))
		expect(held!.status).toBe('pending')
		const [user] = await (await testDeps()).db.select({ id: users.id }).from(users).where(eq(users.email, email))
		expect(await isMember(other, user!.id)).toBe(false)

		await resetThroughMail(email)
		const person = await signedIn({ email, password: 'my very own password' }, { workspace: first.slug })
		expect((await person.submit(`/invitations/${id}/accept`)).redirectedTo).toBe('/invitations?done=accepted')
		expect(await isMember(other, user!.id)).toBe(true)
	})

	test('the sign-in page’s invitations ask the same of an account in no workspace yet', async () => {
		const first = await newWorkspace()
		const other = await newWorkspace()
		const email = `${unique('twice')}@example.test`
		await (await admin(first)).submit('/people', { name: 'Twice Invited', email, role: 'viewer', password: 'temporary password' })
		await (await admin(other)).submit('/people', { name: 'Twice Invited', email, role: 'admin', password: 'another temporary one' })
		const { app } = await portalApp()
		const newcomer = new PortalClient(app, { address: uniqueAddress() })
		await newcomer.signIn(email, 'temporary password')
		const choice = await newcomer.get('/sign-in/workspace?next=%2Fportal')
		const byWorkspace = new Map([...choice.text.matchAll(/action="\/sign-in\/invitations\/(inv_[a-z2-7]+)\/accept"/g)].map((m) => [m[1]!, m.index!]))
		const [otherInvitation] = await (await testDeps()).db
			.select({ id: invitations.id })
			.from(invitations)
			.where(and(eq(invitations.workspaceId, other.id), eq(invitations.email, email)))
		expect(byWorkspace.has(otherInvitation!.id)).toBe(true)
		const refused = await newcomer.post(`/sign-in/invitations/${otherInvitation!.id}/accept`, { next: '/portal' })
		expect(errorOf(refused.text)).toContain('Before you join another workspace')
		const [ownInvitation] = [...byWorkspace.keys()].filter((i) => i !== otherInvitation!.id)
		expect((await newcomer.post(`/sign-in/invitations/${ownInvitation}/accept`, { next: '/portal' })).status).toBe(303)
	})
})
