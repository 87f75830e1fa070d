/**
 * The demo's data agrees with itself (issue 31, "numbers that disagree"): every figure a page shows
 * means one thing, so the seeded workspace must not hold what the product itself could never make —
 * an application older than its job, a stage entered before the application came in, an interview
 * started before its window opened or before the application, careers-site applications the
 * pipeline never received, or mail to a vendor about a submission the vendor's page does not count.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { runCommand } from '../core/cli.ts'
import { newPerson, newWorkspace, testApp, testDeps, type TestWorkspace } from './helpers.ts'

setDefaultTimeout(120_000)
let ws: TestWorkspace

beforeAll(async () => {
	await testApp()
	ws = await newWorkspace()
	await newPerson(ws, 'owner')
	await newPerson(ws, 'recruiter')
	await runCommand(await testDeps(), 'seed', { workspace: ws.slug })
}, 300_000)

const count = async (query: ReturnType<typeof sql>) => {
	const [row] = await (await testDeps()).database.rows<{ n: number }>(query)
	return row!.n
}

describe('the seeded demo workspace agrees with itself', () => {
	test('applications: never before their job opened; stages entered after the application and never in the future', async () => {
		expect(await count(sql`select count(*)::int as n from applications where workspace_id = ${ws.id}`)).toBeGreaterThan(300)
		expect(
			await count(sql`select count(*)::int as n from applications a join jobs j on j.id = a.job_id
			where a.workspace_id = ${ws.id} and a.created_at < coalesce(j.published_at, j.created_at)`),
		).toBe(0)
		expect(
			await count(sql`select count(*)::int as n from applications where workspace_id = ${ws.id}
			and (stage_changed_at < created_at or stage_changed_at > now() or created_at > now())`),
		).toBe(0)
		// Nobody applied before they were in the database.
		expect(
			await count(sql`select count(*)::int as n from applications a join candidates c on c.id = a.candidate_id
			where a.workspace_id = ${ws.id} and a.created_at < c.created_at`),
		).toBe(0)
	})

	test('interviews: after the application, started within their window, nothing done in the future', async () => {
		expect(await count(sql`select count(*)::int as n from interviews where workspace_id = ${ws.id}`)).toBeGreaterThanOrEqual(30)
		expect(
			await count(sql`select count(*)::int as n from interviews i join applications a on a.id = i.application_id
			where i.workspace_id = ${ws.id} and (i.invited_at < a.created_at or i.scheduled_at < a.created_at)`),
		).toBe(0)
		expect(
			await count(sql`select count(*)::int as n from interviews where workspace_id = ${ws.id} and (
				started_at < scheduled_at or completed_at < started_at or invited_at > now() or started_at > now()
				or completed_at > now() or expired_at > now() or (status in ('started', 'completed', 'expired') and scheduled_at > now()))`),
		).toBe(0)
	})

	test('careers-site applications are applications the pipeline received', async () => {
		const events = await count(sql`select count(*)::int as n from careers_events where workspace_id = ${ws.id} and kind = 'application'`)
		expect(events).toBeGreaterThan(0)
		// Each one is an application, at its time, on its job.
		expect(
			await count(sql`select count(*)::int as n from careers_events e where e.workspace_id = ${ws.id} and e.kind = 'application'
			and not exists (select 1 from applications a where a.workspace_id = e.workspace_id and a.job_id = e.job_id and a.created_at = e.at)`),
		).toBe(0)
		// In any window the careers site never claims more applications than came in from every source.
		for (const days of [7, 30, 60])
			expect(
				await count(
					sql`select count(*)::int as n from careers_events where workspace_id = ${ws.id} and kind = 'application' and at >= now() - make_interval(days => ${days})`,
				),
			).toBeLessThanOrEqual(
				await count(sql`select count(*)::int as n from applications where workspace_id = ${ws.id} and created_at >= now() - make_interval(days => ${days})`),
			)
	})

	test('mail with vendors claims no submission the vendor page does not count', async () => {
		expect(await count(sql`select count(*)::int as n from inbox_threads where workspace_id = ${ws.id} and counterpart_type = 'vendor'`)).toBeGreaterThan(0)
		expect(
			await count(sql`select count(*)::int as n from inbox_threads t where t.workspace_id = ${ws.id} and t.counterpart_type = 'vendor'
			and t.subject ilike 'submission%'
			and not exists (select 1 from vendor_submissions s where s.workspace_id = t.workspace_id and s.vendor_id = t.vendor_id)`),
		).toBe(0)
	})
})
