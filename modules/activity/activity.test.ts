/**
 * The activity log records every change made through any door — the portal (session), an assistant
 * app (personal token), the Job Publish API (vendor key) and the operator CLI — with the person or
 * vendor, the credential's kind and its name at the time; owners and admins read it on a page.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { and, asc, eq } from 'drizzle-orm'
import { allCommands, parseCommand, runCommand } from '../../core/cli.ts'
import { encodeCursor } from '../../core/cursor.ts'
import { call, newPerson, newVendor, newWorkspace, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { callTool } from '../../tests/mcp/rpc.ts'
import { portalApp, signedIn } from '../../tests/portal.ts'
import { personActor } from '../auth/index.ts'
import { personalTokens, users } from '../auth/table.ts'
import { activityFor, listActivity, recordActivity } from './index.ts'
import { activity } from './table.ts'

beforeAll(async () => {
	await portalApp()
}, 120_000)

const logOf = async (ws: TestWorkspace) => {
	const deps = await testDeps()
	return deps.db.select().from(activity).where(eq(activity.workspaceId, ws.id)).orderBy(asc(activity.at), asc(activity.seq))
}
/** The page as a person reads it: text only, one space between words. */
const readable = (html: string) =>
	html
		.replace(/<[^>]+>/g, ' ')
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/&amp;/g, '&')
		.replace(/\s+/g, ' ')
const shown = (rows: Awaited<ReturnType<typeof logOf>>) =>
	rows.map((r) => ({ action: r.action, actorName: r.actorName, kind: r.credentialKind, credential: r.credentialName, targetType: r.targetType }))

describe('every change is recorded with who, through which door and credential', () => {
	test('portal session, personal token (by name, kept after revocation and renaming), vendor key and CLI', async () => {
		const ws = await newWorkspace()
		const owner = await newPerson(ws, 'owner')
		const deps = await testDeps()
		const ownerId = (await personActor(deps, ws.slug, owner.email)).userId!
		await deps.db.update(users).set({ name: 'Olive Owner' }).where(eq(users.id, ownerId))
		const portal = await signedIn(owner)

		// Portal: a token created on the API access page.
		const created = await portal.submit('/settings/api/tokens', { name: 'Claude on the desk' })
		const token = created.text.match(/<code id="new-token">([^<]+)<\/code>/)![1]!
		const [tokenRow] = await deps.db.select({ id: personalTokens.id }).from(personalTokens).where(eq(personalTokens.workspaceId, ws.id))

		// Assistant app: job changes through MCP with that token.
		const job = (await callTool(token, 'create_job', { title: 'Data Engineer' })).structuredContent.job
		expect((await callTool(token, 'set_job_status', { jobId: job.id, status: 'Open' })).isError).toBeFalsy()
		expect((await callTool(token, 'set_job_actively_hiring', { jobId: job.id, activelyHiring: true })).isError).toBeFalsy()
		// Reads and refused changes are not changes.
		await callTool(token, 'list_jobs', {})
		expect((await callTool(token, 'set_job_status', { jobId: 'job_absent', status: 'Open' })).isError).toBe(true)

		// Portal again: the token is revoked; a person is added and removed on the people page.
		await portal.post(`/settings/api/tokens/${tokenRow!.id}/revoke`)
		await portal.get('/people')
		await portal.post('/people', { name: 'Rita Recruiter', email: `rita-${ws.slug}@example.test`, role: 'recruiter', password: 'a long enough password' })
		// Rita joins by accepting the invitation at sign-in (her account is new: no workspace yet).
		const ritaPortal = await signedIn({ email: `rita-${ws.slug}@example.test`, password: 'a long enough password' }, { acceptInvitation: true })
		// The people page set a temporary password: she chooses her own before anything else.
		await ritaPortal.get('/settings/password')
		expect(
			(
				await ritaPortal.post('/settings/password', {
					current: 'a long enough password',
					password: 'rita chose this one',
					confirm: 'rita chose this one',
					next: '/portal',
				})
			).status,
		).toBe(303)
		expect((await ritaPortal.get('/portal')).status).toBe(200)
		const rita = await personActor(deps, ws.slug, `rita-${ws.slug}@example.test`)
		await portal.get('/people')
		await portal.post(`/people/${rita.userId}/remove`)

		// Vendor key: a job published through the REST API.
		const vendor = await newVendor(ws, 'Acme Staffing')
		expect((await call('POST', '/api/v1/jobs', { key: vendor.apiKey, body: { vendorJobId: 'V-1', title: 'QA Lead' } })).status).toBe(201)

		// Operator CLI.
		const { command, options } = parseCommand(allCommands(deps), [
			'user',
			'create',
			'--workspace',
			ws.slug,
			'--email',
			`cli-${ws.slug}@example.test`,
			'--name',
			'Cli Person',
			'--role',
			'viewer',
			'--password',
			'another long password',
		])
		await runCommand(deps, command.name, options)

		// The person is renamed afterwards: the log keeps the names of the time.
		await deps.db.update(users).set({ name: 'Olive Renamed' }).where(eq(users.id, ownerId))

		const rows = await logOf(ws)
		const session = { actorName: 'Olive Owner', kind: 'session', credential: 'portal session' }
		const viaToken = { actorName: 'Olive Owner', kind: 'personal_token', credential: 'Claude on the desk' }
		const cli = { actorName: 'Operator', kind: 'cli', credential: 'operator CLI' }
		// (The test helpers add the owner and the vendor through the operator CLI's services.)
		expect(shown(rows).filter((r) => !r.action.startsWith('vendor.'))).toEqual([
			{ action: 'person.added', ...cli, targetType: 'user' },
			{ action: 'token.created', ...session, targetType: 'personal_token' },
			{ action: 'job.created', ...viaToken, targetType: 'job' },
			{ action: 'job.status_set', ...viaToken, targetType: 'job' },
			{ action: 'job.actively_hiring_on', ...viaToken, targetType: 'job' },
			{ action: 'token.revoked', ...session, targetType: 'personal_token' },
			{ action: 'person.invited', ...session, targetType: 'invitation' },
			{ action: 'invitation.accepted', actorName: 'Rita Recruiter', kind: 'session', credential: 'sign-in', targetType: 'invitation' },
			{ action: 'person.password_changed', actorName: 'Rita Recruiter', kind: 'session', credential: 'portal session', targetType: 'user' },
			{ action: 'person.removed', ...session, targetType: 'user' },
			{ action: 'job.published', actorName: 'Acme Staffing', kind: 'vendor_key', credential: `API key …${vendor.apiKey.slice(-4)}`, targetType: 'job' },
			{ action: 'person.added', ...cli, targetType: 'user' },
		])
		// Who and what exactly.
		const byToken = rows.filter((r) => r.credentialKind === 'personal_token')
		for (const r of byToken) expect(r).toMatchObject({ actorUserId: ownerId, actorVendorId: null, credentialId: tokenRow!.id, targetId: job.id })
		expect(rows.find((r) => r.action === 'job.status_set')!.detail).toEqual({ from: 'Draft', to: 'Open' })
		expect(rows.find((r) => r.action === 'job.published')).toMatchObject({ actorUserId: null, actorVendorId: vendor.vendorId })
		expect(rows.find((r) => r.action === 'person.removed')).toMatchObject({ targetId: rita.userId, actorUserId: ownerId })
		// Times are real times, in order.
		for (const r of rows) expect(Math.abs(r.at.getTime() - Date.now())).toBeLessThan(120_000)

		// The page shows the same, with the names of the time.
		const page = await portal.get('/activity')
		expect(page.status).toBe(200)
		// Sentences with names, not codes and ids (issue 19): who, what, to which record, and how.
		const text = readable(page.text)
		expect(text).toContain('Olive Owner set the status of the job Data Engineer with the personal token “Claude on the desk”')
		expect(text).toContain('Olive Owner revoked the personal token Claude on the desk in the portal')
		expect(text).toContain(`Acme Staffing published the job QA Lead with the vendor key “API key …${vendor.apiKey.slice(-4)}”`)
		expect(text).toContain('Operator added ')
		expect(text).toContain('with the operator CLI')
		expect(page.text).toContain(`<a href="/jobs/${job.id}">Data Engineer</a>`)
		for (const code of ['job.status_set', 'token.revoked', 'job.published', 'person.added']) expect(page.text).not.toContain(code)
		expect(text).not.toContain('Olive Renamed set')
	})

	test('names are shown as text, never as markup', async () => {
		const ws = await newWorkspace()
		const owner = await newPerson(ws, 'owner')
		const portal = await signedIn(owner)
		const created = await portal.submit('/settings/api/tokens', { name: '<img src=x onerror=alert(1)>' })
		const token = created.text.match(/<code id="new-token">([^<]+)<\/code>/)![1]!
		expect((await callTool(token, 'create_job', { title: 'Escaped' })).isError).toBeFalsy()
		const page = await portal.get('/activity')
		expect(page.text).not.toContain('<img src=x')
		expect(page.text).toContain('created the job <a href=')
		expect(page.text).toContain('with the personal token “&lt;img src=x onerror=alert(1)&gt;”')
	})

	test('each workspace sees only its own log', async () => {
		const a = await newWorkspace()
		const b = await newWorkspace()
		const ownerA = await signedIn(await newPerson(a, 'owner'))
		const ownerB = await signedIn(await newPerson(b, 'owner'))
		await ownerA.post('/settings/api/tokens', { name: 'Only in A' })
		expect((await ownerA.get('/activity')).text).toContain('created the personal token')
		expect((await ownerB.get('/activity')).text).not.toContain('created the personal token')
		expect((await logOf(b)).some((r) => r.action === 'token.created')).toBe(false)
	})
})

describe('the activity page', () => {
	test('owners and admins read it (and see it in the navigation); everyone else gets 403', async () => {
		const ws = await newWorkspace()
		for (const role of ['owner', 'admin', 'recruiter', 'hiring_manager', 'viewer']) {
			const client = await signedIn(await newPerson(ws, role))
			const res = await client.get('/activity')
			const home = await client.get('/portal')
			if (role === 'owner' || role === 'admin') {
				expect({ role, status: res.status }).toEqual({ role, status: 200 })
				expect(res.text).toContain('<h1>Activity</h1>')
				expect(res.text).toContain('>What happened</th>')
				expect(home.text).toContain('<a href="/activity">Activity</a>')
			} else {
				expect({ role, status: res.status }).toEqual({ role, status: 403 })
				expect(res.text).not.toContain('added')
				expect(home.text).not.toContain('href="/activity"')
			}
		}
		// Signed out: sent to sign in.
		const { app } = await portalApp()
		const anonymous = await app.handle(new Request('http://localhost/activity'))
		expect(anonymous.status).toBe(303)
	})

	test('pages through older entries 50 at a time; a tampered link is refused', async () => {
		const ws = await newWorkspace()
		const owner = await newPerson(ws, 'owner')
		const deps = await testDeps()
		const actor = await personActor(deps, ws.slug, owner.email)
		for (let i = 0; i < 60; i++)
			await recordActivity(deps.db, actor, { action: `test.step_${String(i).padStart(2, '0')}`, targetType: 'test', targetId: String(i) })
		const portal = await signedIn(owner)
		const first = await portal.get('/activity')
		const older = first.text.match(/<a href="\/activity\?before=([^"]+)" rel="next">Next page<\/a>/)
		expect(older).not.toBeNull()
		const firstActions = [...first.text.matchAll(/<\/strong> (test: step \d+|added)/g)].map((m) => m[1])
		expect(firstActions).toHaveLength(50)
		const second = await portal.get(`/activity?before=${older![1]}`)
		const secondActions = [...second.text.matchAll(/<\/strong> (test: step \d+|added)/g)].map((m) => m[1])
		expect(new Set([...firstActions, ...secondActions]).size).toBe(61)
		expect(second.text).not.toContain('>Next page<')
		const tampered = await portal.get(`/activity?before=${older![1]!.replace(/^./, (c) => (c === 'a' ? 'b' : 'a'))}`)
		expect(tampered.status).toBeGreaterThanOrEqual(400)
		expect(tampered.status).toBeLessThan(500)
		// Newest first, across both pages.
		const times = [...first.text.matchAll(/<time datetime="([^"]+)">/g), ...second.text.matchAll(/<time datetime="([^"]+)">/g)].map((m) => Date.parse(m[1]!))
		expect(times).toHaveLength(61)
		expect(times).toEqual([...times].sort((x, y) => y - x))
		const rows = await deps.db
			.select()
			.from(activity)
			.where(and(eq(activity.workspaceId, ws.id), eq(activity.targetType, 'test')))
		expect(rows).toHaveLength(60)
	})
})

describe('records on the page', () => {
	test('are linked only for a reader who can open them: a person’s own message template is linked for that person, named without a link for the others', async () => {
		const ws = await newWorkspace()
		const deps = await testDeps()
		const [owner, admin] = [await newPerson(ws, 'owner'), await newPerson(ws, 'admin')]
		const { createTemplate } = await import('../templates/service.ts')
		const input = { channel: 'email', kind: 'transactional', subject: 'Hello', body: 'Hello {candidate.name}' }
		const own = await createTemplate(deps, await personActor(deps, ws.slug, owner.email), { ...input, name: 'Owner private', shared: false })
		const everyones = await createTemplate(deps, await personActor(deps, ws.slug, owner.email), { ...input, name: 'Firm wide', shared: true })
		const page = async (who: typeof owner) => (await (await signedIn(who)).get('/activity')).text
		const [ownerPage, adminPage] = [await page(owner), await page(admin)]
		expect(ownerPage).toContain(`href="/settings/templates/${own.id}"`)
		expect(adminPage).not.toContain(`/settings/templates/${own.id}`)
		expect(readable(adminPage)).toContain('made the message template Owner private')
		for (const text of [ownerPage, adminPage]) expect(text).toContain(`href="/settings/templates/${everyones.id}"`)
	})
})

describe('lines written in the same millisecond', () => {
	/** Two lines of one record at the same instant, written first `act_z…` then `act_a…`: their random ids sort the other way round. */
	async function tiedLines() {
		const ws = await newWorkspace()
		const deps = await testDeps()
		const at = new Date()
		const line = (id: string, action: string) => ({
			id,
			workspaceId: ws.id,
			at,
			actorName: 'Tie Tester',
			credentialKind: 'cli',
			credentialId: 'cli',
			credentialName: 'CLI',
			action,
			targetType: 'test',
			targetId: 'tie',
		})
		await deps.db.insert(activity).values(line(`act_z${ws.id}`, 'test.written_first'))
		await deps.db.insert(activity).values(line(`act_a${ws.id}`, 'test.written_second'))
		return { ws, deps, at }
	}

	test('keep the order they were written in: oldest first for a record, newest first on the paged list (one per page, across the tie)', async () => {
		const { ws, deps } = await tiedLines()
		expect((await activityFor(deps.db, ws.id, 'test', 'tie')).map((l) => l.action)).toEqual(['test.written_first', 'test.written_second'])
		const first = await listActivity(deps, ws.id, { limit: 1 })
		expect(first.rows.map((r) => r.action)).toEqual(['test.written_second'])
		expect(first.nextCursor).not.toBeNull()
		const second = await listActivity(deps, ws.id, { limit: 1, cursor: first.nextCursor! })
		expect(second.rows.map((r) => r.action)).toEqual(['test.written_first'])
		expect(second.nextCursor).toBeNull()
		// Both in one page, the same order.
		expect((await listActivity(deps, ws.id, { limit: 5 })).rows.map((r) => r.action)).toEqual(['test.written_second', 'test.written_first'])
	})

	test('a cursor of the old shape (time and id) is refused as not valid, by the list and by the page (no 500)', async () => {
		const { ws, deps, at } = await tiedLines()
		const old = encodeCursor(deps.secret, `activity:${ws.id}`, [at.getTime().toString(36), `act_z${ws.id}`])
		// Signed by this server for this list: only the id where the order number now goes is refused.
		await expect(listActivity(deps, ws.id, { limit: 1, cursor: old })).rejects.toThrow(/^cursor is not valid$/)
		const owner = await newPerson(ws, 'owner')
		const page = await (await signedIn(owner)).get(`/activity?before=${old}`)
		expect(page.status).toBeGreaterThanOrEqual(400)
		expect(page.status).toBeLessThan(500)
	})
})
