/**
 * Interviews created in the same millisecond keep the order they were created in: `seq` (insertion
 * order), not the random id, breaks a tie of `created_at`. The pair is written in one transaction,
 * where `now()` — their `created_at` — is the same, first `int_z…` then `int_a…`, so that their ids
 * sort the other way round.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { testDeps, type TestWorkspace } from '../../tests/helpers.ts'
import { newApplication, newCandidate, newVendorJob, workspaceWithOwner } from '../../tests/staffing-fixtures.ts'
import { interviewsOfApplications, listInterviews } from './service.ts'
import { interviews } from './table.ts'

setDefaultTimeout(30_000)

const HOUR = 3_600_000
let deps: AppDeps
let ws: TestWorkspace
let owner: Actor
let applicationId: string
let first: string
let second: string

beforeAll(async () => {
	deps = await testDeps()
	;({ ws, owner } = await workspaceWithOwner(deps))
	const candidateId = await newCandidate(ws, { resume: false }, deps)
	const jobId = await newVendorJob(ws, {}, deps)
	applicationId = await newApplication(ws, candidateId, jobId, {}, deps)
	;[first, second] = [`int_z${applicationId}`, `int_a${applicationId}`]
	const scheduledAt = new Date(Date.now() - 48 * HOUR)
	const interview = (id: string) => ({
		id,
		workspaceId: ws.id,
		candidateId,
		jobId,
		applicationId,
		status: 'expired',
		scheduledAt,
		deadlineAt: new Date(scheduledAt.getTime() + HOUR),
		expiredAt: new Date(scheduledAt.getTime() + HOUR),
	})
	await deps.db.transaction(async (tx) => {
		await tx.insert(interviews).values(interview(first))
		await tx.insert(interviews).values(interview(second))
	})
}, 60_000)

describe('created in the same millisecond', () => {
	test('the interview list: newest first, the one created last on top, one page at a time too', async () => {
		// One transaction, one `now()`: the same created_at.
		const written = await deps.db.select({ createdAt: interviews.createdAt }).from(interviews).where(eq(interviews.applicationId, applicationId))
		expect(written).toHaveLength(2)
		expect(new Set(written.map((i) => i.createdAt.getTime())).size).toBe(1)
		expect((await listInterviews(deps, owner, { limit: 25 })).interviews.map((i) => i.id)).toEqual([second, first])
		const page1 = await listInterviews(deps, owner, { limit: 1 })
		expect(page1.interviews.map((i) => i.id)).toEqual([second])
		const page2 = await listInterviews(deps, owner, { limit: 1, cursor: page1.nextCursor! })
		expect(page2.interviews.map((i) => i.id)).toEqual([first])
		expect(page2.nextCursor).toBeNull()
		expect((await listInterviews(deps, owner, { status: 'expired', limit: 25 })).interviews.map((i) => i.id)).toEqual([second, first])
	})

	test("an application's interviews (get_application, the application and candidate pages): newest first", async () => {
		const found = await interviewsOfApplications(deps, owner, [applicationId])
		expect(found.get(applicationId)!.interviews.map((i) => i.id)).toEqual([second, first])
	})
})
