/**
 * An address whose domain a workspace verified for its single sign-on is that workspace's to bring in
 * (domains.ts). Another workspace's admin once made the account by inviting the address (with a
 * temporary password the admin chose); the firm's SCIM then attached that account as it was, and the
 * admin signed in as the firm's person. And a workspace that turns on "Require single sign-on" ended
 * only the password sign-ins still to come: a session opened with a password before went on. Then
 * the same admin signed in with the temporary password and chose the next one, which SCIM kept.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import type { AppError } from '../../../core/errors.ts'
import { callOn, newPerson, newWorkspace, testDeps, unique } from '../../../tests/helpers.ts'
import { portalApp } from '../../../tests/portal.ts'
import { addPerson, operatorActor, personActor } from '../index.ts'
import { acceptInvitation, invitePerson } from '../invitations.ts'
import { signIn, validateSession } from '../sessions.ts'
import { changePassword } from '../passwords.ts'
import { resetPassword } from '../password-reset.ts'
import { hashSecret, newCredential, newId } from '../../../core/credentials.ts'
import { invitations, passwordResets, ssoConfigs, ssoDomains, users } from '../table.ts'
import { createScimToken } from './scim-tokens.ts'

setDefaultTimeout(120_000)

let app: Awaited<ReturnType<typeof portalApp>>['app']
beforeAll(async () => {
	app = (await portalApp()).app
})

const PASSWORD = 'temporary horse battery'
const domainName = () => `${unique('firm')}.example.test`
const refusal = (promise: Promise<unknown>) =>
	promise.then(
		() => null,
		(error: AppError) => ({ code: error.code, message: error.message }),
	)

/** A workspace and one of its admins, acting. */
async function workspaceWithAdmin() {
	const deps = await testDeps()
	const ws = await newWorkspace()
	const admin = await newPerson(ws, 'admin')
	return { deps, ws, admin: await personActor(deps, ws.slug, admin.email) }
}

describe('an address in another workspace’s single sign-on domain', () => {
	test('is not invited, nor added by the operator, into this workspace; its own workspace may', async () => {
		const { deps, ws, admin } = await workspaceWithAdmin()
		const firm = await newWorkspace()
		const domain = domainName()
		await deps.db.insert(ssoDomains).values({ domain, workspaceId: firm.id })
		const email = `dana@${domain}`
		const invited = await refusal(invitePerson(deps, admin, ws, { email, name: 'Dana', role: 'viewer', password: PASSWORD }))
		expect(invited).toEqual({ code: 'CONFLICT', message: expect.stringContaining(`${domain} belongs to another workspace’s single sign-on`) })
		const added = await refusal(addPerson(deps, operatorActor(ws), ws, { email, name: 'Dana', role: 'viewer', password: PASSWORD }))
		expect(added?.code).toBe('CONFLICT')
		// Nothing was made: no account carries a password someone else chose.
		expect(await deps.db.select().from(users).where(eq(users.email, email))).toEqual([])
		// The firm itself still adds its own people.
		expect((await addPerson(deps, operatorActor(firm), firm, { email, name: 'Dana', role: 'viewer', password: PASSWORD })).created).toBe(true)
	})

	test('an invitation sent before the domain was verified elsewhere can no longer be accepted', async () => {
		const { deps, ws, admin } = await workspaceWithAdmin()
		const domain = domainName()
		const email = `erin@${domain}`
		const { invitationId } = await invitePerson(deps, admin, ws, { email, name: 'Erin', role: 'viewer', password: PASSWORD })
		const firm = await newWorkspace()
		await deps.db.insert(ssoDomains).values({ domain, workspaceId: firm.id })
		const [account] = await deps.db.select({ id: users.id }).from(users).where(eq(users.email, email))
		const accepted = await refusal(acceptInvitation(deps, account!.id, invitationId, { kind: 'session', id: 'test', name: 'portal session' }))
		expect(accepted).toEqual({ code: 'CONFLICT', message: expect.stringContaining('can no longer be accepted') })
		const [invitation] = await deps.db.select({ status: invitations.status }).from(invitations).where(eq(invitations.id, invitationId))
		expect(invitation!.status).toBe('cancelled')
	})

	test('the firm’s SCIM taking in an account someone else gave a temporary password ends that password and its sessions', async () => {
		const { deps, email, account } = await invitedAccount()
		const before = await signIn(deps, { email, password: PASSWORD, address: '192.0.2.40' })
		if (!('token' in before)) throw new Error('expected a session')
		expect(await validateSession(deps, before.token)).not.toBeNull()

		expect((await firmProvisions(deps, email)).id).toBe(account.id)

		expect(await validateSession(deps, before.token)).toBeNull()
		expect((await refusal(signIn(deps, { email, password: PASSWORD, address: '192.0.2.41' })))?.code).toBe('UNAUTHORIZED')
		const [row] = await deps.db.select({ temporary: users.passwordTemporary }).from(users).where(eq(users.id, account.id))
		expect(row!.temporary).toBe(false)
	})

	test('so does a password chosen by whoever signed in with that temporary one', async () => {
		// The inviter signs in with the temporary password and chooses the next one: no longer
		// temporary, still the inviter's.
		const { deps, email } = await invitedAccount()
		const chosen = 'the inviter chose this one'
		const session = await sessionOf(deps, email, PASSWORD)
		await changePassword(deps, session, { current: PASSWORD, password: chosen, confirm: chosen })
		const kept = await sessionOf(deps, email, chosen)

		await firmProvisions(deps, email)

		expect(await validateSession(deps, kept.token)).toBeNull()
		expect((await refusal(signIn(deps, { email, password: chosen, address: '192.0.2.42' })))?.code).toBe('UNAUTHORIZED')
	})

	test('a password set through a reset link, which went to the account’s own mail, stays', async () => {
		const { deps, ws, email, account } = await invitedAccount()
		const token = newCredential('pwr')
		const now = deps.now()
		await deps.db
			.insert(passwordResets)
			.values({ id: newId('pwr'), tokenHash: hashSecret(token), userId: account.id, createdAt: now, expiresAt: new Date(now.getTime() + 600_000) })
		const own = 'the person chose this one'
		await resetPassword(deps, token, { password: own, confirm: own })

		await firmProvisions(deps, email)

		// Now in two workspaces: the one it was invited to is asked for.
		expect(await validateSession(deps, (await sessionOf(deps, email, own, ws.slug)).token)).not.toBeNull()
	})
})

describe('an address another workspace’s SCIM renamed the account to', () => {
	test('a password proven through the old address’s mail is not the new address’s: the firm taking the account in ends it, and a reset link sent to the old address no longer works', async () => {
		// Workspace A's SCIM makes an account at an address its owner reads, who sets a password with a
		// reset link (their own mail), then renames the account to the firm's CEO's address before the
		// firm verifies its domain: the password once survived the firm's SCIM taking the account in.
		const deps = await testDeps()
		const squatter = await newWorkspace()
		const owner = await personActor(deps, squatter.slug, (await newPerson(squatter, 'owner')).email)
		const { token: scimToken } = await createScimToken(
			deps,
			{ ...owner, credential: { kind: 'session', id: 'test', name: 'portal session' } },
			{ name: 'Okta' },
		)
		const scim = (method: string, path: string, body: unknown) =>
			callOn(app, method, `/scim/v2${path}`, { key: scimToken, raw: JSON.stringify(body), headers: { 'content-type': 'application/scim+json' } })
		const made = await scim('POST', '/Users', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: `mallory@${domainName()}`, active: true })
		expect(made.status).toBe(201)
		const userId = made.json.id as string
		const link = async () => {
			const token = newCredential('pwr')
			const now = deps.now()
			await deps.db
				.insert(passwordResets)
				.values({ id: newId('pwr'), tokenHash: hashSecret(token), userId, createdAt: now, expiresAt: new Date(now.getTime() + 600_000) })
			return token
		}
		const chosen = 'mallory chose this one'
		await resetPassword(deps, await link(), { password: chosen, confirm: chosen })
		const pending = await link()

		const ceo = `ceo@${domainName()}`
		const renamed = await scim('PATCH', `/Users/${userId}`, {
			schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
			Operations: [{ op: 'replace', path: 'userName', value: ceo }],
		})
		expect(renamed.status).toBe(200)
		// The link went to the old address: it sets no password for the new one.
		const late = 'set through the old mail'
		expect((await refusal(resetPassword(deps, pending, { password: late, confirm: late })))?.code).toBe('NOT_FOUND')
		// Nor does the account join a workspace that invites the new address: its mail has shown nothing yet.
		const third = await workspaceWithAdmin()
		const { invitationId } = await invitePerson(deps, third.admin, third.ws, { email: ceo, name: 'The CEO', role: 'admin', password: PASSWORD })
		expect(await refusal(acceptInvitation(deps, userId, invitationId, { kind: 'session', id: '', name: 'test' }))).toEqual({
			code: 'CONFLICT',
			message: expect.stringContaining(`Before you join another workspace, show that ${ceo} is yours`),
		})

		expect((await firmProvisions(deps, ceo)).id).toBe(userId)
		for (const password of [chosen, late]) expect((await refusal(signIn(deps, { email: ceo, password, address: '192.0.2.44' })))?.code).toBe('UNAUTHORIZED')
	})
})

/** An account another workspace's admin made by inviting the address (accepted), before any firm verified its domain. */
async function invitedAccount() {
	const { deps, ws, admin } = await workspaceWithAdmin()
	const email = `frank@${domainName()}`
	const { invitationId } = await invitePerson(deps, admin, ws, { email, name: 'Frank', role: 'viewer', password: PASSWORD })
	const [account] = await deps.db.select({ id: users.id }).from(users).where(eq(users.email, email))
	await acceptInvitation(deps, account!.id, invitationId, { kind: 'session', id: 'test', name: 'portal session' })
	return { deps, ws, email, account: account! }
}

/** A new workspace verifies the address's domain and its SCIM provisions the address; the provisioned user. */
async function firmProvisions(deps: Awaited<ReturnType<typeof testDeps>>, email: string) {
	const firm = await newWorkspace()
	await deps.db.insert(ssoDomains).values({ domain: email.split('@')[1]!, workspaceId: firm.id })
	const owner = await newPerson(firm, 'owner')
	const ownerActor = await personActor(deps, firm.slug, owner.email)
	const { token } = await createScimToken(deps, { ...ownerActor, credential: { kind: 'session', id: 'test', name: 'portal session' } }, { name: 'Okta' })
	const provisioned = await callOn(app, 'POST', '/scim/v2/Users', {
		key: token,
		raw: JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: email, active: true }),
		headers: { 'content-type': 'application/scim+json' },
	})
	expect(provisioned.status).toBe(201)
	return provisioned.json as { id: string }
}

/** A portal session opened with the password (in that workspace, when the person is in several). */
async function sessionOf(deps: Awaited<ReturnType<typeof testDeps>>, email: string, password: string, workspace?: string) {
	const opened = await signIn(deps, { email, password, address: '192.0.2.43', workspace })
	if (!('token' in opened)) throw new Error('expected a session')
	const session = await validateSession(deps, opened.token)
	if (!session) throw new Error('expected a live session')
	return { ...session, token: opened.token }
}

describe('Require single sign-on', () => {
	test('ends the password sessions of everyone but the owners, opened before it was turned on', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const owner = await newPerson(ws, 'owner')
		const recruiter = await newPerson(ws, 'recruiter')
		const sessionOf = async (person: { email: string; password: string }) => {
			const opened = await signIn(deps, { email: person.email, password: person.password, address: '192.0.2.50' })
			if (!('token' in opened)) throw new Error('expected a session')
			return opened.token
		}
		const ownerSession = await sessionOf(owner)
		const recruiterSession = await sessionOf(recruiter)
		await deps.db.insert(ssoConfigs).values({ workspaceId: ws.id, issuer: 'https://idp.example.test', clientId: 'benchline', clientSecretSealed: 'sealed' })
		// Single sign-on set up but not required: passwords still open the workspace.
		expect(await validateSession(deps, recruiterSession)).not.toBeNull()
		await deps.db.update(ssoConfigs).set({ requireSso: true }).where(eq(ssoConfigs.workspaceId, ws.id))
		expect(await validateSession(deps, recruiterSession)).toBeNull()
		expect((await validateSession(deps, ownerSession))?.actor.role).toBe('owner')
	})
})
