/**
 * Mentions and notifications: `@name` in a note notifies that colleague when they may see the note
 * (refused and named otherwise, nothing saved), in the note's transaction; `/notifications` lists
 * unread first, opening one goes to the note and marks it read, Mark all as read; the counts beside
 * the navigation (notifications, overdue to-dos); the daily digest at 07:00 in the person's zone, once;
 * a record is named and linked, on the page and in the digest, only while the reader can open it.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq } from 'drizzle-orm'
import { newPerson, testApp, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { signedIn } from '../../tests/portal.ts'
import { onTeam } from '../../tests/sdk.ts'
import { newApplication, newCandidate, newVendorJob } from '../../tests/staffing-fixtures.ts'
import { mentionedIn } from '../candidates/mentions.ts'
import { notes } from '../candidates/table.ts'
import { changeRole, operatorActor } from '../auth/index.ts'
import { users } from '../auth/table.ts'
import { jobTeam } from '../jobs/table.ts'
import { outbox } from '../outbox/table.ts'
import { createTodo } from '../todos/index.ts'
import { sendDigests } from './digest.ts'
import { notifications } from './table.ts'

setDefaultTimeout(30_000)

type Person = Awaited<ReturnType<typeof newPerson>>
let w: { ws: TestWorkspace; dana: Person; rita: Person; hank: Person; vic: Person; job: string; candidate: string; app: string }

async function named(ws: TestWorkspace, role: string, name: string) {
	const deps = await testDeps()
	const p = await newPerson(ws, role, {}, deps)
	await deps.db.update(users).set({ name }).where(eq(users.id, p.userId))
	return p
}

beforeAll(async () => {
	await testApp()
	const deps = await testDeps()
	const ws = (await import('../../tests/helpers.ts')).newWorkspace
	const workspace = await ws(deps)
	const dana = await named(workspace, 'owner', 'Dana Lee')
	const rita = await named(workspace, 'recruiter', 'Rita Moreno')
	const hank = await named(workspace, 'hiring_manager', 'Hank Hill')
	const vic = await named(workspace, 'viewer', 'Vic Stone')
	const job = await newVendorJob(workspace, { title: 'Data Engineer' }, deps)
	await onTeam(job, hank.userId)
	const candidate = await newCandidate(workspace, { name: 'Ava Jackson' }, deps)
	const app = await newApplication(workspace, candidate, job, {}, deps)
	w = { ws: workspace, dana, rita, hank, vic, job, candidate, app }
}, 180_000)

const unreadOf = async (userId: string) =>
	(
		await (
			await testDeps()
		).db
			.select()
			.from(notifications)
			.where(and(eq(notifications.userId, userId), eq(notifications.workspaceId, w.ws.id)))
	).filter((n) => !n.readAt)

describe('mentions', () => {
	test('a name after @ is a mention: full name, e-mail name, a first name nobody else has; never inside an e-mail address', () => {
		const people = [
			{ userId: 'u1', name: 'Dana Lee', email: 'dana.lee@x.test', role: 'owner' },
			{ userId: 'u2', name: 'Dana Cruz', email: 'dcruz@x.test', role: 'recruiter' },
			{ userId: 'u3', name: 'Hank Hill', email: 'hank@x.test', role: 'hiring_manager' },
		]
		expect(mentionedIn('Thanks @dana lee and @HANK!', people)).toEqual(['u1', 'u3'])
		expect(mentionedIn('cc @dcruz, write to bob@hank.test, @Dana is ambiguous, @nobody', people)).toEqual(['u2'])
		expect(mentionedIn('@Hank @hank.', people)).toEqual(['u3'])
		expect(mentionedIn('@Hankerchief', people)).toEqual([])
	})

	test('a name two colleagues go by (one’s e-mail name, the other’s only first name) mentions neither, whatever the order', () => {
		const rita = { userId: 'u4', name: 'Rita Moreno', email: 'rm@x.test', role: 'recruiter' }
		const other = { userId: 'u5', name: 'Ann Other', email: 'rita@x.test', role: 'recruiter' }
		for (const people of [
			[rita, other],
			[other, rita],
		]) {
			expect(mentionedIn('ask @rita', people)).toEqual([])
			// Their other names still mention each of them.
			expect(mentionedIn('ask @Rita Moreno and @Ann', people)).toEqual(['u4', 'u5'])
		}
		// One person whose e-mail name is their own first name is still mentioned by it.
		expect(mentionedIn('ask @rita', [{ ...rita, email: 'rita@x.test' }])).toEqual(['u4'])
	})

	test('a shared note about an application notifies the recruiter, owner and the job’s hiring manager mentioned; the writer is never notified', async () => {
		const portal = await signedIn(w.rita)
		await portal.get(`/candidates/${w.candidate}`)
		const res = await portal.submit(`/candidates/${w.candidate}/notes`, {
			text: 'Strong on Spark. @Dana Lee can you approve the rate? @hank please review. (me: @rita)',
			visibility: 'shared',
			applicationId: w.app,
		})
		expect(res.redirectedTo).toContain('done=note-added')
		const [dana, hank, rita] = await Promise.all([unreadOf(w.dana.userId), unreadOf(w.hank.userId), unreadOf(w.rita.userId)])
		expect(dana.map((n) => [n.kind, n.recordType, n.recordId, n.actorUserId])).toEqual([['mention', 'candidate', w.candidate, w.rita.userId]])
		expect(hank).toHaveLength(1)
		expect(rita).toHaveLength(0)
		// The notification keeps ids only: the note's text is nowhere in it.
		expect(JSON.stringify(dana[0])).not.toContain('Spark')
	})

	test('mentioning someone who cannot see the note refuses it, naming them; nothing is saved or sent', async () => {
		const deps = await testDeps()
		const portal = await signedIn(w.dana)
		await portal.get(`/candidates/${w.candidate}`)
		const cases = [
			{ text: 'Private: @Rita Moreno look', visibility: 'private', applicationId: '', who: 'Rita Moreno', what: 'a private note' },
			{ text: 'General note for @Hank Hill', visibility: 'shared', applicationId: '', who: 'Hank Hill', what: 'a note about the candidate in general' },
			{ text: 'FYI @Vic Stone', visibility: 'shared', applicationId: w.app, who: 'Vic Stone', what: 'notes (viewers read jobs only)' },
			// A viewer in a general note is told about viewers, not about hiring managers.
			{ text: 'General note for @Vic Stone', visibility: 'shared', applicationId: '', who: 'Vic Stone', what: 'notes (viewers read jobs only):' },
			// Two people who cannot see it for different reasons: each named with their own.
			{
				text: 'General note for @Hank Hill and @Vic Stone',
				visibility: 'shared',
				applicationId: '',
				who: 'Hank Hill',
				what: 'a note about the candidate in general (hiring managers see notes about their jobs’ applications); and Vic Stone, who cannot see notes (viewers read jobs only): remove the mentions',
			},
		]
		for (const c of cases) {
			const res = await portal.post(`/candidates/${w.candidate}/notes`, { text: c.text, visibility: c.visibility, applicationId: c.applicationId })
			expect(res.status).toBe(422)
			expect(res.text).toContain(`Note mentions ${c.who}, who cannot see ${c.what}`)
			expect(res.text).toContain(`${c.text}</textarea>`)
		}
		const saved = await deps.db.select().from(notes).where(eq(notes.candidateId, w.candidate))
		expect(saved.map((n) => n.body).filter((b) => cases.some((c) => c.text === b))).toEqual([])
		expect(await unreadOf(w.vic.userId)).toEqual([])
	})
})

describe('notifications', () => {
	test('the count beside the navigation; the list, unread first; opening one goes to the note and marks it read; Mark all as read', async () => {
		const deps = await testDeps()
		const portal = await signedIn(w.dana)
		const home = await portal.get('/portal')
		expect(home.text).toContain('Notifications <span class="count">1<span class="visually-hidden"> unread</span></span>')
		const list = await portal.get('/notifications')
		expect(list.text).toContain('Rita Moreno mentioned you in a note on Ava Jackson')
		const id = /href="\/notifications\/(ntf_[a-z2-7]+)"/.exec(list.text)![1]
		const open = await portal.get(`/notifications/${id}`)
		expect(open.status).toBe(303)
		expect(open.headers.get('location')).toMatch(new RegExp(`^/candidates/${w.candidate}#note-note_[a-z2-7]+$`))
		expect(await unreadOf(w.dana.userId)).toEqual([])
		// Someone else's notification is not found.
		const hankId = (await unreadOf(w.hank.userId))[0]!.id
		expect((await portal.get(`/notifications/${hankId}`)).status).toBe(404)
		const hank = await signedIn(w.hank)
		await hank.get('/notifications')
		const read = await hank.submit('/notifications/read-all')
		expect(read.text).toContain('Every notification is marked as read.')
		expect(await unreadOf(w.hank.userId)).toEqual([])
		expect(read.text).not.toContain('<span class="count">')
		// An overdue to-do is counted beside To-dos.
		await deps.db.transaction((tx) =>
			createTodo(tx, { workspaceId: w.ws.id, assigneeUserId: w.hank.userId, title: 'Send feedback', dueAt: new Date(Date.now() - 3_600_000) }),
		)
		expect((await hank.get('/notifications')).text).toContain('To-dos <span class="count">1<span class="visually-hidden"> overdue</span></span>')
	})

	test('the daily digest: chosen on the profile page, sent once from 07:00 in the person’s zone, only when something waits', async () => {
		const deps = await testDeps()
		await deps.db.update(users).set({ timeZone: 'America/Chicago' }).where(eq(users.id, w.dana.userId))
		const portal = await signedIn(w.dana)
		await portal.get('/settings/profile')
		const chosen = await portal.submit('/notifications/digest', { digest: 'on' })
		expect(chosen.text).toContain('Your choice of the daily digest was saved.')
		expect(chosen.text).toContain('name="digest" value="on" checked>')
		const rita = await signedIn(w.rita)
		await rita.get(`/candidates/${w.candidate}`)
		await rita.submit(`/candidates/${w.candidate}/notes`, { text: 'Rate approved? @Dana', visibility: 'shared', applicationId: '' })
		const mails = async () =>
			(
				await deps.db
					.select()
					.from(outbox)
					.where(and(eq(outbox.workspaceId, w.ws.id), eq(outbox.to, w.dana.email)))
			).filter((m) => m.subject?.startsWith('Your day'))
		// 06:30 in Chicago (12:30 UTC in December): not yet.
		await sendDigests(deps, new Date('2030-12-02T12:30:00Z'))
		expect(await mails()).toEqual([])
		await sendDigests(deps, new Date('2030-12-02T13:30:00Z'))
		await sendDigests(deps, new Date('2030-12-02T20:00:00Z'))
		const [digest] = await mails()
		expect((await mails()).length).toBe(1)
		expect(digest!.text).toContain('- Rita Moreno mentioned you in a note on Ava Jackson')
		expect(digest!.text).toContain(`http://localhost:3000/candidates/${w.candidate}#note-`)
		expect(digest!.relatedType).toBe('account')
		// The next day, with everything read, nothing is sent.
		await portal.get('/notifications')
		await portal.submit('/notifications/read-all')
		await sendDigests(deps, new Date('2030-12-03T13:30:00Z'))
		expect((await mails()).length).toBe(1)
	})

	const named = 'Rita Moreno mentioned you in a note on Ava Jackson'
	const neutral = 'Rita Moreno mentioned you in a note on a record you can no longer open'

	test('a record is named and linked only while the reader can open it: off the hiring team or a viewer, a neutral line without name or link', async () => {
		const deps = await testDeps()
		const rita = await signedIn(w.rita)
		await rita.get(`/candidates/${w.candidate}`)
		await rita.submit(`/candidates/${w.candidate}/notes`, { text: '@Hank Hill your call on the offer', visibility: 'shared', applicationId: w.app })
		const hank = await signedIn(w.hank)
		const shown = async () => {
			const page = await hank.get('/notifications')
			expect(page.status).toBe(200)
			return page.text
		}
		expect(await shown()).toContain(`">${named}</a>`)
		const id = (await unreadOf(w.hank.userId))[0]!.id
		// Off the job's hiring team (reassigned): the candidate is out of his reach, and so is its name.
		await deps.db.delete(jobTeam).where(and(eq(jobTeam.jobId, w.job), eq(jobTeam.userId, w.hank.userId)))
		expect((await hank.get(`/candidates/${w.candidate}`)).status).toBe(404)
		const off = await shown()
		expect(off).toContain(`<strong class="tag tag-info">Unread</strong> ${neutral}<br>`)
		expect(off).not.toContain('Ava Jackson')
		expect(off).not.toContain(`/notifications/${id}"`)
		expect(off).toContain('Notifications <span class="count">1<span class="visually-hidden"> unread</span></span>')
		// Opening it still marks it read, and leads back to the list, not to the candidate.
		expect((await hank.get(`/notifications/${id}`)).headers.get('location')).toBe('/notifications')
		await deps.db.update(notifications).set({ readAt: null }).where(eq(notifications.id, id))
		// Back on the team: named again, as reach is read when shown.
		await onTeam(w.job, w.hank.userId)
		expect(await shown()).toContain(`">${named}</a>`)
		// A viewer sees no candidates at all.
		await changeRole(deps, operatorActor(w.ws), w.ws, { userId: w.hank.userId }, 'viewer')
		try {
			expect((await hank.get(`/candidates/${w.candidate}`)).status).toBe(403)
			const viewer = await shown()
			expect(viewer).toContain(neutral)
			expect(viewer).not.toContain('Ava Jackson')
		} finally {
			await changeRole(deps, operatorActor(w.ws), w.ws, { userId: w.hank.userId }, 'hiring_manager')
			// Made a viewer, he left the job's hiring team (the jobs module's membership listener): put back for what follows.
			await onTeam(w.job, w.hank.userId)
		}
	})

	test('the digest names a record only through the reach its reader has when it is sent', async () => {
		const deps = await testDeps()
		const hank = await signedIn(w.hank)
		await hank.get('/settings/profile')
		await hank.submit('/notifications/digest', { digest: 'on' })
		expect((await unreadOf(w.hank.userId)).length).toBe(1)
		const digestOn = async (day: string) => {
			await sendDigests(deps, new Date(`${day}T08:00:00Z`))
			const mails = await deps.db
				.select()
				.from(outbox)
				.where(and(eq(outbox.workspaceId, w.ws.id), eq(outbox.to, w.hank.email)))
				.orderBy(outbox.seq)
			return mails.filter((m) => m.subject?.startsWith('Your day')).at(-1)?.text ?? ''
		}
		expect(await digestOn('2031-01-05')).toContain(`- ${named} (`)
		await deps.db.delete(jobTeam).where(and(eq(jobTeam.jobId, w.job), eq(jobTeam.userId, w.hank.userId)))
		const off = await digestOn('2031-01-06')
		expect(off).toContain(`1 unread notification:\n- ${neutral} (`)
		expect(off).not.toContain('Ava Jackson')
		expect(off).not.toContain(`/candidates/${w.candidate}`)
		await onTeam(w.job, w.hank.userId)
		await changeRole(deps, operatorActor(w.ws), w.ws, { userId: w.hank.userId }, 'viewer')
		try {
			const viewer = await digestOn('2031-01-07')
			expect(viewer).toContain(`- ${neutral} (`)
			expect(viewer).not.toContain('Ava Jackson')
			expect(viewer).not.toContain('/candidates/')
		} finally {
			await changeRole(deps, operatorActor(w.ws), w.ws, { userId: w.hank.userId }, 'hiring_manager')
			// Made a viewer, he left the job's hiring team (the jobs module's membership listener): put back for what follows.
			await onTeam(w.job, w.hank.userId)
		}
	})
})
