/**
 * A job's hiring team comes in the same order every time: by when each person was added, and people
 * added in the same millisecond (one form, one insert) by their id, never in whatever order the
 * database returns tied rows.
 */
import { expect, test } from 'bun:test'
import { newPerson, newWorkspace, testDeps } from '../../tests/helpers.ts'
import { newVendorJob } from '../../tests/staffing-fixtures.ts'
import { operatorActor } from '../auth/index.ts'
import { getJob } from './service.ts'
import { jobTeam } from './table.ts'

test('a team added at once is listed in one order: added time, then id', async () => {
	const deps = await testDeps()
	const ws = await newWorkspace(deps)
	const jobId = await newVendorJob(ws, {}, deps)
	const people = await Promise.all(Array.from({ length: 5 }, () => newPerson(ws, 'hiring_manager', {}, deps)))
	const sorted = people.map((p) => p.userId).sort()
	// Inserted in an order the ids do not sort in, all in the same millisecond.
	const addedAt = new Date('2026-01-02T03:04:05.006Z')
	const shuffled = [sorted[2]!, sorted[0]!, sorted[4]!, sorted[1]!, sorted[3]!]
	for (const userId of shuffled) await deps.db.insert(jobTeam).values({ jobId, userId, addedAt })
	const job = await getJob(deps, operatorActor(ws), jobId)
	expect(job.hiringTeam.map((t) => t.userId)).toEqual(sorted)
})
