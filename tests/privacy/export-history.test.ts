/** A person's export holds each application's moves between stages, and every timestamp in one form. */
import { expect, setDefaultTimeout, test } from 'bun:test'
import { strFromU8, unzipSync } from 'fflate'
import { testDeps } from '../helpers.ts'
import { newApplication, newCandidate, newVendorJob, workspaceWithOwner } from '../staffing-fixtures.ts'
import { moveToStage } from '../../modules/candidates/index.ts'
import { exportCandidate } from '../../modules/privacy/index.ts'

setDefaultTimeout(60_000)

test('the export lists every stage move of each application, oldest first; every timestamp is ISO 8601 in UTC with Z', async () => {
	const deps = await testDeps()
	const { ws, owner } = await workspaceWithOwner(deps)
	const job = await newVendorJob(ws, { title: 'Data Engineer' }, deps)
	const candidateId = await newCandidate(ws, { name: 'Imre Vantongeren', email: 'imre.v@example.test' }, deps)
	const applicationId = await newApplication(ws, candidateId, job, {}, deps)
	await moveToStage(deps, owner, { applicationId, stageKey: 'screening' })
	await moveToStage(deps, owner, { applicationId, stageKey: 'submitted' })

	const text = strFromU8(unzipSync((await exportCandidate(deps, owner, candidateId, 'test')).bytes)['candidate.json']!)
	const [application] = JSON.parse(text).candidate.applications
	expect(application.stageHistory.map((m: { from: string; to: string }) => `${m.from}→${m.to}`)).toEqual(['applied→screening', 'screening→submitted'])
	const stamps = [...text.matchAll(/"(\d{4}-\d{2}-\d{2}T[^"]*)"/g)].map((m) => m[1]!)
	expect(stamps.length).toBeGreaterThan(4)
	expect(stamps.filter((t) => !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/.test(t))).toEqual([])
})
