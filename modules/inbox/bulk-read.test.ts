/**
 * The inbox's bulk Mark as read (issue 31): the ticked conversations are marked read for the person
 * through markThreadRead, one activity line each; the report says what was done, what was already
 * read and what was not found; the page redirected to shows it once.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq, inArray, sql } from 'drizzle-orm'
import { runCommand } from '../../core/cli.ts'
import type { AppDeps } from '../../core/deps.ts'
import { newPerson, newWorkspace, testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { portalApp, signedIn } from '../../tests/portal.ts'
import { activity } from '../activity/table.ts'

setDefaultTimeout(120_000)

let deps: AppDeps
let ws: TestWorkspace
beforeAll(async () => {
	await portalApp()
	deps = await testDeps()
	ws = await newWorkspace(deps)
	await runCommand(deps, 'seed', { workspace: ws.slug })
}, 120_000)

describe('bulk Mark as read in the inbox', () => {
	test('ticked conversations are read for this person only, one activity line each; unknown ids are refused', async () => {
		const person = await newPerson(ws, 'recruiter', {}, deps)
		const c = await signedIn(person)
		const list = await c.get('/inbox?filter=unread')
		expect(list.text).toContain('<form method="post" action="/inbox/bulk" data-bulk>')
		const unread = [...list.text.matchAll(/name="thread" value="(thr_[a-z0-9]+)"/g)].map((m) => m[1]!).slice(0, 3)
		expect(unread.length).toBe(3)
		const res = await c.submit('/inbox/bulk', { thread: [...unread, 'thr_doesnotexist'], back: '/inbox?filter=unread' })
		expect(res.redirectedTo).toBe('/inbox/bulk')
		expect(res.text).toContain('Mark as read: 3 records done, 1 refused.')
		expect(res.text).toContain('<a href="/inbox?filter=unread">Back to the list</a>')
		const after = await c.get('/inbox?filter=unread')
		for (const id of unread) expect(after.text).not.toContain(`value="${id}"`)
		const lines = await deps.db
			.select({ id: activity.targetId })
			.from(activity)
			.where(and(eq(activity.action, 'inbox.marked_read'), inArray(activity.targetId, unread)))
		expect(lines.length).toBe(3)
		// Another person's unread state is their own.
		const other = await signedIn(await newPerson(ws, 'recruiter', {}, deps))
		const theirs = await other.get('/inbox?filter=unread')
		for (const id of unread) expect(theirs.text).toContain(`value="${id}"`)
		// Again: already read, nothing logged.
		await c.get('/inbox')
		const again = await c.submit('/inbox/bulk', { thread: unread })
		expect(again.text).toContain('Mark as read: 0 records done, 3 unchanged.')
		const [n] = await deps.database.rows<{ n: number }>(
			sql`select count(*)::int as n from activity where action = 'inbox.marked_read' and workspace_id = ${ws.id}`,
		)
		expect(n!.n).toBe(3)
	})

	test('more than 50 conversations marks none read and says so: never cut short', async () => {
		const c = await signedIn(await newPerson(ws, 'recruiter', {}, deps))
		const list = await c.get('/inbox?filter=unread')
		const unread = [...list.text.matchAll(/name="thread" value="(thr_[a-z0-9]+)"/g)].map((m) => m[1]!).slice(0, 1)
		expect(unread).toHaveLength(1)
		const ticked = [...unread, ...Array.from({ length: 50 }, (_, i) => `thr_toomany${i}`)]
		const res = await c.submit('/inbox/bulk', { thread: ticked, back: '/inbox?filter=unread' })
		expect(res.text).toContain('Nothing done: choose at most 50 conversations at once (51 were ticked)')
		expect((await c.get('/inbox?filter=unread')).text).toContain(`value="${unread[0]}"`)
	})
})
