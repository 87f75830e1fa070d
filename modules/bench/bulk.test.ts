/**
 * Add to bench from the candidates list (issue 31): the ticked candidates go through addToBench, one
 * activity line each; one already on that bench is unchanged; the report is shown once; a role
 * without bench:write gets no controls and a 403.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { and, eq, inArray } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import { newPerson, newWorkspace, type TestWorkspace } from '../../tests/helpers.ts'
import { portalApp, signedIn } from '../../tests/portal.ts'
import { newCandidate } from '../../tests/staffing-fixtures.ts'
import { activity } from '../activity/table.ts'

setDefaultTimeout(60_000)

let deps: AppDeps
let ws: TestWorkspace
const ids: string[] = []
beforeAll(async () => {
	;({ deps } = await portalApp())
	ws = await newWorkspace(deps)
	for (let i = 1; i <= 3; i++) ids.push(await newCandidate(ws, { name: `Benchable ${i}`, email: `benchable${i}@mail.example` }, deps))
})

describe('bulk Add to bench on /candidates', () => {
	test('the ticked candidates join the bench, one activity line each; again is unchanged; a hiring manager gets no controls', async () => {
		const c = await signedIn(await newPerson(ws, 'recruiter', {}, deps))
		const list = await c.get('/candidates')
		expect(list.text).toContain('<form method="post" id="bulk-candidates"')
		expect(list.text).toContain('formaction="/bench/bulk">Add to bench</button>')
		for (const id of ids) expect(list.text).toContain(`value="${id}" id="pick-${id}" form="bulk-candidates"`)
		const res = await c.submit('/bench/bulk', { candidate: ids.slice(0, 2), roleFamily: 'java', back: '/candidates' })
		expect(res.redirectedTo).toBe('/bench/bulk')
		expect(res.text).toContain('2 records done.')
		expect(res.text).toContain('<td>Benchable 1</td>')
		const lines = await deps.db
			.select({ id: activity.targetId })
			.from(activity)
			.where(and(eq(activity.action, 'bench.added'), inArray(activity.targetId, ids)))
		expect(lines.length).toBe(2)
		await c.get('/candidates')
		const again = await c.submit('/bench/bulk', { candidate: [ids[0]!, ids[2]!, 'cand_doesnotexist000000'], roleFamily: 'java' })
		expect(again.text).toContain('1 record done, 1 unchanged, 1 refused.')
		const manager = await signedIn(await newPerson(ws, 'hiring_manager', {}, deps))
		expect((await manager.get('/candidates')).text).not.toContain('bulk-candidates')
		expect((await manager.post('/bench/bulk', { candidate: ids, roleFamily: 'java' })).status).toBe(403)
	})

	test('more than 50 candidates adds none and says so: never cut short', async () => {
		const extra = await newCandidate(ws, { name: 'Benchable Extra', email: 'benchable.extra@mail.example' }, deps)
		const c = await signedIn(await newPerson(ws, 'recruiter', {}, deps))
		await c.get('/candidates')
		const ticked = [extra, ...Array.from({ length: 50 }, (_, i) => `cand_toomany${String(i).padStart(12, '0')}`)]
		const res = await c.submit('/bench/bulk', { candidate: ticked, roleFamily: 'qa', back: '/candidates' })
		expect(res.text).toContain('Nothing done: choose at most 50 candidates at once (51 were ticked)')
		const lines = await deps.db
			.select({ id: activity.targetId })
			.from(activity)
			.where(and(eq(activity.action, 'bench.added'), eq(activity.targetId, extra)))
		expect(lines).toHaveLength(0)
	})
})
