/**
 * Hired is an outcome (progress.ts): a rejected or withdrawn application moved into the Hired stage
 * keeps its outcome (stage-move.ts) and is hired nowhere — not in the board's Hired column or its
 * list, not in the counts per stage of the job tools and the home page, not in the funnel's Hired
 * step, not under the candidates list's stage filter. The real hire beside it is, everywhere.
 */
import { beforeAll, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import type { AppDeps } from '../../core/deps.ts'
import { newPerson, newWorkspace, testDeps } from '../../tests/helpers.ts'
import { newApplication, newCandidate, newVendorJob } from '../../tests/staffing-fixtures.ts'
import { personActor } from '../auth/index.ts'
import { listApplications } from './application-service.ts'
import { listCandidates } from './candidate-service.ts'
import { candidateJobFacts } from './facts.ts'
import { applicationFunnel } from './funnel.ts'
import { jobPipeline, jobPipelineList } from './pipeline.ts'
import { moveToStage } from './stage-move.ts'

setDefaultTimeout(60_000)
let deps: AppDeps
let recruiter: Actor
let jobId: string
const ids = {} as Record<'hired' | 'rejected' | 'withdrawn' | 'offer', string>

beforeAll(async () => {
	deps = await testDeps()
	const ws = await newWorkspace(deps)
	const person = await newPerson(ws, 'recruiter', {}, deps)
	recruiter = await personActor(deps, ws.slug, person.email)
	jobId = await newVendorJob(ws, {}, deps)
	for (const name of ['hired', 'rejected', 'withdrawn', 'offer'] as const) {
		const candidateId = await newCandidate(ws, { name: `Cand ${name}`, resume: false }, deps)
		ids[name] = await newApplication(ws, candidateId, jobId, {}, deps)
	}
	await deps.database.rows(sql`update applications set outcome = 'rejected' where id = ${ids.rejected}`)
	await deps.database.rows(sql`update applications set outcome = 'withdrawn' where id = ${ids.withdrawn}`)
	for (const name of ['hired', 'rejected', 'withdrawn'] as const) await moveToStage(deps, recruiter, { applicationId: ids[name], stageKey: 'hired' })
	await moveToStage(deps, recruiter, { applicationId: ids.offer, stageKey: 'offer' })
})

test('the board: the Hired column holds the hire alone; the rejected and withdrawn ones are listed apart', async () => {
	const board = await jobPipeline(deps, recruiter, jobId, 5)
	const hired = board.stages.find((s) => s.key === 'hired')!
	expect({ count: hired.count, cards: hired.applications.map((a) => a.id), closed: board.closed }).toEqual({ count: 1, cards: [ids.hired], closed: 2 })
	const column = await jobPipelineList(deps, recruiter, { jobId, stageKey: 'hired', state: 'active', limit: 25 })
	expect(column.applications.map((a) => a.id)).toEqual([ids.hired])
	// The closed ones at a stage are still there to be listed, and counted alike.
	const closed = await jobPipelineList(deps, recruiter, { jobId, stageKey: 'hired', state: 'closed', limit: 25 })
	expect({ total: closed.total, ids: closed.applications.map((a) => a.id).sort() }).toEqual({ total: 2, ids: [ids.rejected, ids.withdrawn].sort() })
})

test('list_applications by stage, the job tools’ and home page’s counts per stage, and the candidates list’s stage filter', async () => {
	const listed = await listApplications(deps, recruiter, { jobId, stageKey: 'hired', limit: 25 })
	expect(listed.applications.map((a) => a.id)).toEqual([ids.hired])
	// Without a stage, every application is listed with its outcome.
	const all = await listApplications(deps, recruiter, { jobId, limit: 25 })
	expect(all.applications.map((a) => [a.id, a.outcome]).sort()).toEqual(
		Object.entries(ids)
			.map(([name, id]) => [id, name === 'offer' ? null : name])
			.sort(),
	)
	const facts = (await candidateJobFacts(deps, recruiter, [jobId])).get(jobId)!
	expect(facts).toEqual({ applicantCount: 4, applicationsByStage: { hired: 1, offer: 1 } })
	const candidates = await listCandidates(deps, recruiter, { jobId, stageKey: 'hired', limit: 25 })
	expect(candidates.candidates.map((c) => c.application?.id)).toEqual([ids.hired])
})

test('the funnel: the rejected and withdrawn ones reached the stages before Hired, not Hired', async () => {
	const funnel = await applicationFunnel(deps, recruiter, { from: new Date(Date.now() - 86_400_000), to: new Date(Date.now() + 60_000) })
	const reached = Object.fromEntries(funnel.stages.map((s) => [s.key, s.reached]))
	expect({ received: funnel.received, offer: reached.offer, hired: reached.hired }).toEqual({ received: 4, offer: 4, hired: 1 })
})
