/**
 * Forgot password, in-process through the real pages and the outbox: one answer whatever the
 * address, a sealed single-use link valid 30 minutes that ends every session of the person, the
 * limits per client address and per account, and the link never in plain text (database, outbox,
 * inbox copy, log) nor revealable in the dev mailbox.
 */
import { afterEach, beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq, inArray } from 'drizzle-orm'
import { credentialType, hashSecret } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { awayFromMinuteEdge, clock, logLines, newPerson, newWorkspace, testDeps, unique } from '../../tests/helpers.ts'
import { PortalClient, portalApp, signedIn, uniqueAddress } from '../../tests/portal.ts'
import { activity } from '../activity/table.ts'
import { syncOutbox } from '../inbox/index.ts'
import { inboxMessages } from '../inbox/table.ts'
import { ACCOUNT_MAIL, PRIVATE_MARKER, textToSend } from '../outbox/index.ts'
import { outbox } from '../outbox/table.ts'
import { addPerson, operatorActor, removePerson } from './index.ts'
import { requestPasswordReset } from './password-reset.ts'
import { passwordResets, users } from './table.ts'

setDefaultTimeout(30_000)

beforeAll(async () => {
	await portalApp()
}, 30_000)
afterEach(() => clock.reset())

const LINK = /http:\/\/localhost:3000\/sign-in\/reset-password\/(bl_pwr_[0-9A-Za-z]{36})/

async function anonymous(address = uniqueAddress()) {
	const { app } = await portalApp()
	return new PortalClient(app, { address })
}

/** Asks for a link through the page; returns the answer (followed, like a browser). */
async function ask(email: string, client?: PortalClient) {
	client ??= await anonymous()
	await client.get('/sign-in/forgot-password')
	return client.submit('/sign-in/forgot-password', { email })
}

/** The reset mails queued for an address (waits for the work the answer did not wait for). */
async function mailsTo(email: string, expected: number) {
	const deps = await testDeps()
	const deadline = Date.now() + 10_000
	for (;;) {
		const rows = await deps.db.select().from(outbox).where(eq(outbox.to, email))
		if (rows.length >= expected || Date.now() > deadline) return rows
		await Bun.sleep(20)
	}
}

/** The link in a reset mail, as its recipient gets it (the outbox keeps it sealed). */
async function linkIn(row: typeof outbox.$inferSelect) {
	const token = LINK.exec(await textToSend((await testDeps()).secret, row))![1]!
	return { token, path: `/sign-in/reset-password/${token}` }
}

/** A fresh limiter each time (new deps): for the tests that are not about the limits. */
const fresh = () => testDeps({ BASE_URL: 'http://localhost:3000' })

/** A person with a reset link, asked for through the service (its work awaited). */
async function personWithLink(deps?: AppDeps) {
	const ws = await newWorkspace()
	const person = await newPerson(ws, 'recruiter')
	const { settled } = await requestPasswordReset(deps ?? (await fresh()), { email: person.email.toUpperCase(), address: uniqueAddress() })
	await settled
	const [mail] = await mailsTo(person.email, 1)
	return { ws, person, mail: mail!, ...(await linkIn(mail!)) }
}

describe('asking for a link', () => {
	test('the sign-in page links to Forgot password; an address with an account and one without get the same answer; only the account gets mail', async () => {
		const sign = await (await anonymous()).get('/sign-in')
		expect(sign.text).toContain('<a href="/sign-in/forgot-password">Forgot password</a>')
		const ws = await newWorkspace()
		const person = await newPerson(ws, 'viewer')
		const nobody = `${unique('nobody')}@example.test`
		const [known, unknown] = [await ask(person.email), await ask(nobody)]
		for (const answer of [known, unknown]) {
			expect(answer.redirectedTo).toBe('/sign-in/forgot-password?done=sent')
			expect(answer.status).toBe(200)
			expect(answer.headers.get('cache-control')).toBe('no-store')
		}
		const page = (r: typeof known) => r.text.replace(/value="[a-z0-9]{32}"/g, 'value="csrf"')
		expect(page(known)).toBe(page(unknown))
		expect(known.text).toContain('If an account uses the address you entered, a link to choose a new password is on its way. It works for 30 minutes, once.')
		expect(await mailsTo(person.email, 1)).toHaveLength(1)
		// The work for an address without an account, awaited: it queues nothing.
		const { settled } = await requestPasswordReset(await fresh(), { email: nobody, address: uniqueAddress() })
		await settled
		expect(await (await testDeps()).db.select().from(outbox).where(eq(outbox.to, nobody))).toEqual([])
	})

	test('a malformed address is refused on the page (422, what was typed kept), whatever the accounts', async () => {
		const answer = await ask('not an address <b>')
		expect(answer.status).toBe(422)
		expect(answer.text).toContain('<title>Error: Forgot password · Benchline</title>')
		expect(answer.text).toContain('<a href="#email">Enter your e-mail address, like name@example.com</a>')
		expect(answer.text).toContain('value="not an address &lt;b&gt;"')
		const forged = await (await anonymous()).request('POST', '/sign-in/forgot-password', { form: { email: 'a@example.test' } })
		expect(forged.status).toBe(403)
	})

	test('an account whose address was kept from before the dot-atom rule (a dot first, last or doubled before the @) gets its link; such an address is still refused for someone new', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		for (const local of ['.ann', 'ann.', 'ann..lee']) {
			const person = await newPerson(ws, 'recruiter')
			const kept = `${local}@${ws.slug}.example.test`
			await deps.db.update(users).set({ email: kept }).where(eq(users.id, person.userId))
			const answer = await ask(kept.toUpperCase())
			expect(answer.redirectedTo).toBe('/sign-in/forgot-password?done=sent')
			const [mail] = await mailsTo(kept, 1)
			expect(mail).toMatchObject({ to: kept, subject: 'Choose a new Benchline password' })
			await expect(
				addPerson(deps, operatorActor(ws), ws, { email: `${local}@new-${ws.slug}.example.test`, name: 'New', role: 'viewer', password: 'temporary password' }),
			).rejects.toMatchObject({
				code: 'VALIDATION',
				fields: [{ field: 'email', message: 'must be an e-mail address' }],
			})
		}
	})

	test('the mail: to the person, through their workspace’s outbox, the link sealed (never revealable), not copied to the inbox; only its SHA-256 is stored', async () => {
		const { ws, person, mail, token } = await personWithLink()
		expect(credentialType(token)).toBe('pwr')
		expect(mail).toMatchObject({
			workspaceId: ws.id,
			channel: 'email',
			to: person.email,
			subject: 'Choose a new Benchline password',
			relatedType: ACCOUNT_MAIL,
			carriesPrivate: true,
			privateRevealable: false,
			held: true,
		})
		expect(mail.text).toContain(PRIVATE_MARKER)
		expect(JSON.stringify(mail)).not.toContain('bl_pwr_')
		const [row] = await (await testDeps()).db.select().from(passwordResets).where(eq(passwordResets.id, mail.relatedId!))
		expect(row!.tokenHash).toBe(hashSecret(token))
		expect(JSON.stringify(row)).not.toContain(token)
		expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBe(30 * 60_000)
		// Colleagues and assistants read the inbox: account mail is not there.
		await syncOutbox(await testDeps(), ws.id)
		expect(await (await testDeps()).db.select().from(inboxMessages).where(eq(inboxMessages.outboxId, mail.id))).toEqual([])
		// The workspace's owner sees the mail in the dev mailbox, but the link stays sealed.
		const owner = await signedIn(await newPerson(ws, 'owner'))
		const entry = await owner.get(`/outbox/${mail.id}`)
		expect(entry.status).toBe(200)
		expect(entry.text).toContain('it is never shown here')
		expect(entry.text).not.toContain('Reveal link')
		const reveal = await owner.post(`/outbox/${mail.id}/reveal`)
		expect(reveal.status).toBe(409)
		expect(reveal.text).not.toContain('bl_pwr_')
		expect((await owner.get(`/outbox/${mail.id}`)).text).not.toContain('bl_pwr_')
	})

	test('a person in no workspace and invited nowhere gets nothing (they could not sign in anyway); an invited newcomer’s mail goes through the inviting workspace', async () => {
		const deps = await testDeps()
		const ws = await newWorkspace()
		const loner = await newPerson(ws, 'viewer')
		await removePerson(deps, operatorActor(ws), ws, { email: loner.email })
		await (await requestPasswordReset(await fresh(), { email: loner.email, address: uniqueAddress() })).settled
		expect(await deps.db.select().from(outbox).where(eq(outbox.to, loner.email))).toEqual([])
		const admin = await signedIn(await newPerson(ws, 'admin'))
		const invited = `${unique('invited')}@example.test`
		await admin.get('/people')
		await admin.submit('/people', { name: 'Invited', email: invited, role: 'viewer', password: 'temporary password' })
		await (await requestPasswordReset(await fresh(), { email: invited, address: uniqueAddress() })).settled
		expect((await deps.db.select({ ws: outbox.workspaceId }).from(outbox).where(eq(outbox.to, invited))).map((r) => r.ws)).toEqual([ws.id])
	})
})

describe('using the link', () => {
	test('it opens a form for its account; a refused password leaves it working; the right one ends every session of the person (every workspace), clears a temporary password, and the link is used up', async () => {
		const deps = await testDeps()
		const { ws, person, path, token } = await personWithLink()
		const other = await newWorkspace()
		await addPerson(deps, operatorActor(other), other, { email: person.email, name: 'x', role: 'viewer', password: 'ignored for an existing account' })
		await deps.db.update(users).set({ passwordTemporary: true }).where(eq(users.email, person.email))
		const sessions = [await signedIn(person, { workspace: ws.slug }), await signedIn(person, { workspace: other.slug })]
		const visitor = await anonymous()
		const form = await visitor.get(path)
		expect(form.status).toBe(200)
		expect(form.headers.get('cache-control')).toBe('no-store')
		expect(form.text).toContain('<h1>Choose a new password</h1>')
		expect(form.text).toContain(`value="${person.email}" hidden readonly`)
		expect(form.text.match(/autocomplete="new-password"/g)).toHaveLength(2)

		// Without the form's token nothing changes, and the link still works.
		expect((await visitor.request('POST', path, { form: { password: 'a brand new password', confirm: 'a brand new password' } })).status).toBe(403)
		const short = await visitor.post(path, { password: 'short', confirm: 'short' })
		expect(short.status).toBe(422)
		expect(short.text).toContain('<a href="#new-password">The new password must be 10-200 characters</a>')
		const mismatch = await visitor.post(path, { password: 'a brand new password', confirm: 'another new password' })
		expect(mismatch.status).toBe(422)
		expect(mismatch.text).toContain('The two new passwords are not the same')
		expect((await visitor.get(path)).status).toBe(200)

		const saved = await visitor.post(path, { password: 'a brand new password', confirm: 'a brand new password' })
		expect(saved.status).toBe(303)
		expect(saved.headers.get('location')).toBe('/sign-in?done=password-reset')
		expect((await visitor.get('/sign-in?done=password-reset')).text).toContain(
			'Your new password is saved and you were signed out everywhere. Sign in with it now.',
		)
		for (const s of sessions) expect((await s.get('/portal')).headers.get('location')).toBe('/sign-in?next=%2Fportal')
		const user = (await deps.db.select().from(users).where(eq(users.email, person.email)))[0]!
		expect(user.passwordTemporary).toBe(false)
		expect((await (await anonymous()).signIn(person.email, person.password)).status).toBe(401)
		expect((await (await anonymous()).signIn(person.email, 'a brand new password')).status).toBe(303)
		// Once.
		for (const again of [await visitor.get(path), await visitor.post(path, { password: 'yet another password', confirm: 'yet another password' })]) {
			expect(again.status).toBe(404)
			expect(again.text).toContain('This link no longer works')
		}
		for (const w of [ws, other]) {
			const lines = await deps.db
				.select({ credential: activity.credentialName, kind: activity.credentialKind })
				.from(activity)
				.where(and(eq(activity.workspaceId, w.id), eq(activity.action, 'person.password_reset')))
			expect(lines).toEqual([{ credential: 'password reset link', kind: 'reset_link' }])
		}
		// The link was in the addresses requested: the request log has them, masked.
		expect(logLines.some((l) => l.includes('"route":"/sign-in/reset-password/:token"'))).toBe(true)
		expect(logLines.filter((l) => l.includes(token))).toEqual([])
	})

	test('"also disconnect apps and personal tokens" is ticked by default: every personal token and app connection of the person ends, in every workspace; unticked, they keep working (issue 26)', async () => {
		const deps = await testDeps()
		const { createPersonalToken, personActor } = await import('./index.ts')
		const { rpc } = await import('../../tests/mcp/rpc.ts')
		const { authServer, connectedApp, mcp } = await import('../../tests/oauth/as-client.ts')
		const setUp = async () => {
			const { ws, person, path } = await personWithLink()
			const other = await newWorkspace()
			await addPerson(deps, operatorActor(other), other, { email: person.email, name: 'x', role: 'recruiter', password: 'ignored for an existing account' })
			const tokens = await Promise.all(
				[ws, other].map(async (w) => (await createPersonalToken(deps, await personActor(deps, w.slug, person.email), { name: `in ${w.slug}` })).token),
			)
			const portal = await signedIn(person, { workspace: ws.slug })
			const app = await connectedApp({ who: { ws, person, portal } })
			return { ws, person, path, tokens, access: app.tokens.access_token }
		}
		const ctx = await authServer()
		const working = async (s: Awaited<ReturnType<typeof setUp>>) => [
			...(await Promise.all(s.tokens.map(async (t) => (await rpc(t, 'tools/list')).status))),
			(await mcp(ctx, s.access, 'tools/list')).status,
		]

		const ticked = await setUp()
		expect(await working(ticked)).toEqual([200, 200, 200])
		const visitor = await anonymous()
		const form = await visitor.get(ticked.path)
		expect(form.text).toMatch(
			/<input type="checkbox" id="disconnect" name="disconnect" value="1" aria-describedby="disconnect-hint" checked> Also disconnect apps and personal tokens/,
		)
		// A refused post keeps the box as it was.
		expect((await visitor.post(ticked.path, { password: 'short', confirm: 'short' })).text).not.toMatch(/id="disconnect"[^>]* checked/)
		expect((await visitor.post(ticked.path, { password: 'short', confirm: 'short', disconnect: '1' })).text).toMatch(/id="disconnect"[^>]* checked/)
		expect((await visitor.post(ticked.path, { password: 'a brand new password', confirm: 'a brand new password', disconnect: '1' })).status).toBe(303)
		expect(await working(ticked)).toEqual([401, 401, 401])
		for (const w of [ticked.ws.id]) {
			const lines = await deps.db
				.select({ action: activity.action })
				.from(activity)
				.where(and(eq(activity.workspaceId, w), inArray(activity.action, ['person.password_reset', 'person.disconnected_everywhere'])))
			expect(lines.map((l) => l.action).sort()).toEqual(['person.disconnected_everywhere', 'person.password_reset'])
		}

		const unticked = await setUp()
		const other = await anonymous()
		await other.get(unticked.path)
		expect((await other.post(unticked.path, { password: 'a brand new password', confirm: 'a brand new password' })).status).toBe(303)
		expect(await working(unticked)).toEqual([200, 200, 200])
	})

	test('using one link, or changing the password, uses up the person’s other links', async () => {
		const deps = await fresh()
		const first = await personWithLink(deps)
		await (await requestPasswordReset(deps, { email: first.person.email, address: uniqueAddress() })).settled
		const mails = await mailsTo(first.person.email, 2)
		const second = await linkIn(mails.find((m) => m.id !== first.mail.id)!)
		const visitor = await anonymous()
		await visitor.get(second.path)
		expect((await visitor.post(second.path, { password: 'a brand new password', confirm: 'a brand new password' })).status).toBe(303)
		expect((await visitor.get(first.path)).status).toBe(404)

		const third = await personWithLink()
		const client = await signedIn(third.person)
		await client.get('/settings/password')
		await client.post('/settings/password', { current: third.person.password, password: 'changed meanwhile', confirm: 'changed meanwhile' })
		expect((await (await anonymous()).get(third.path)).status).toBe(404)
	})

	test('it works for 30 minutes', async () => {
		const { path } = await personWithLink()
		const visitor = await anonymous()
		clock.advance(29 * 60_000)
		expect((await visitor.get(path)).status).toBe(200)
		clock.advance(2 * 60_000)
		const late = await visitor.get(path)
		expect(late.status).toBe(404)
		expect(late.text).toContain('expired or has already been used')
		expect((await visitor.post(path, { password: 'a brand new password', confirm: 'a brand new password' })).status).toBe(404)
	})

	test('a made-up, mistyped or other-type link gets the same page', async () => {
		const { token } = await personWithLink()
		const flipped = token.slice(0, 10) + (token[10] === 'a' ? 'b' : 'a') + token.slice(11)
		const visitor = await anonymous()
		const pages = await Promise.all(
			['bl_pwr_nothing', flipped, token.replace('bl_pwr_', 'bl_pat_'), 'x'].map((t) => visitor.get(`/sign-in/reset-password/${t}`)),
		)
		for (const p of pages) {
			expect(p.status).toBe(404)
			expect(p.text).toContain('This link no longer works')
		}
		expect((await visitor.get(`/sign-in/reset-password/${token}`)).status).toBe(200)
	})
})

describe('limits', () => {
	test('per client address: the sixth request in a minute is refused (429, Retry-After, what was typed kept), for any address typed', async () => {
		const address = uniqueAddress()
		const client = await anonymous(address)
		await awayFromMinuteEdge()
		for (let i = 0; i < 5; i++) expect((await ask(`${unique('a')}@example.test`, client)).redirectedTo).toBe('/sign-in/forgot-password?done=sent')
		const refused = await ask('sixth@example.test', client)
		expect(refused.status).toBe(429)
		expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0)
		expect(refused.text).toMatch(/Too many requests for a link\. Wait \d+ seconds, then try again\./)
		expect(refused.text).toContain('value="sixth@example.test"')
		// Another address is not slowed down.
		expect((await ask(`${unique('b')}@example.test`)).redirectedTo).toBe('/sign-in/forgot-password?done=sent')
	})

	test('per account: the fourth request in a minute for one address is refused from any client address, alike for an address with an account and one without', async () => {
		const person = await newPerson(await newWorkspace(), 'viewer')
		const nobody = `${unique('nobody')}@example.test`
		const answers: Record<string, number[]> = {}
		for (const email of [person.email, nobody])
			answers[email] = await Promise.all([0, 1, 2, 3].map(async () => (await ask(email)).status)).then((s) => s.sort())
		expect(answers[person.email]).toEqual([200, 200, 200, 429])
		expect(answers[nobody]).toEqual([200, 200, 200, 429])
		expect(await mailsTo(person.email, 3)).toHaveLength(3)
	})

	test('at most 5 links an hour for one account: beyond, nothing is sent and the answer is the same', async () => {
		const person = await newPerson(await newWorkspace(), 'viewer')
		for (let i = 0; i < 7; i++) await (await requestPasswordReset(await fresh(), { email: person.email, address: uniqueAddress() })).settled
		const deps = await testDeps()
		const userId = (await deps.db.select({ id: users.id }).from(users).where(eq(users.email, person.email)))[0]!.id
		expect(await deps.db.select().from(passwordResets).where(eq(passwordResets.userId, userId))).toHaveLength(5)
		expect(
			await deps.db
				.select()
				.from(outbox)
				.where(and(eq(outbox.to, person.email), inArray(outbox.relatedType, [ACCOUNT_MAIL]))),
		).toHaveLength(5)
		clock.advance(61 * 60_000)
		await (await requestPasswordReset(await fresh(), { email: person.email, address: uniqueAddress() })).settled
		expect(await deps.db.select().from(passwordResets).where(eq(passwordResets.userId, userId))).toHaveLength(6)
	})
})
