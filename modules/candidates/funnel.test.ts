/**
 * The funnel behind the analytics page: the per-day counters (kept by a trigger) always equal a
 * count of the applications themselves, whatever writes them; the funnel of a period counts the
 * applicants received in it and how far each got; waiting times follow the first stage move.
 * Everything is checked against the applications table, not against the service's own sums.
 */
import { beforeAll, describe, expect, setDefaultTimeout, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import type { Actor } from '../../core/actor.ts'
import { newId } from '../../core/credentials.ts'
import type { AppDeps } from '../../core/deps.ts'
import { newPerson, newWorkspace, testDeps, usingPostgres, type TestWorkspace } from '../../tests/helpers.ts'
import { newCandidate, newVendorJob } from '../../tests/staffing-fixtures.ts'
import { recordActivity } from '../activity/index.ts'
import { personActor } from '../auth/index.ts'
import { jobTeam } from '../jobs/table.ts'
import { applicationFunnel, PER_DAY } from './funnel.ts'
import { applications } from './table.ts'

setDefaultTimeout(60_000)
const HOUR = 3_600_000
const DAY = 24 * HOUR

let deps: AppDeps
beforeAll(async () => {
	deps = await testDeps()
})

async function application(ws: TestWorkspace, jobId: string, o: { at: Date; stage?: string; outcome?: string | null; kind?: string; stageChangedAt?: Date }) {
	const id = newId('app')
	const candidateId = await newCandidate(ws, { resume: false }, deps)
	await deps.db.insert(applications).values({
		id,
		workspaceId: ws.id,
		candidateId,
		jobId,
		stageKey: o.stage ?? 'applied',
		outcome: o.outcome ?? null,
		kind: o.kind ?? 'applicant',
		createdAt: o.at,
		stageChangedAt: o.stageChangedAt ?? o.at,
	})
	return id
}

/** The counters of a workspace (rows that count something) against a count of its applications. */
async function countersAndTruth(workspaceId: string) {
	const counters = await deps.database.rows<{ day: string; stage: string; outcome: string; kind: string; n: number }>(
		sql`select day::text as day, stage_key as stage, outcome, kind, n from application_daily_counts where workspace_id = ${workspaceId} and n <> 0 order by 1, 2, 3, 4`,
	)
	const truth = await deps.database.rows<{ day: string; stage: string; outcome: string; kind: string; n: number }>(
		sql`select (created_at at time zone 'UTC')::date::text as day, stage_key as stage, coalesce(outcome, '') as outcome, kind, count(*)::int as n from applications where workspace_id = ${workspaceId} group by 1, 2, 3, 4 order by 1, 2, 3, 4`,
	)
	return { counters, truth }
}

describe('the per-day counters', () => {
	test('follow every insert, stage move, outcome, kind and date change, move between workspaces and delete', async () => {
		const ws = await newWorkspace(deps)
		const other = await newWorkspace(deps)
		const job = await newVendorJob(ws, {}, deps)
		const otherJob = await newVendorJob(other, {}, deps)
		const base = new Date(Date.UTC(2026, 2, 10, 23, 30))
		const ids = []
		for (let i = 0; i < 6; i++)
			ids.push(
				await application(ws, job, {
					at: new Date(base.getTime() + i * 20 * 60_000),
					stage: i % 2 ? 'screening' : 'applied',
					kind: i === 5 ? 'lead' : 'applicant',
				}),
			)
		expect((await countersAndTruth(ws.id)).counters.length).toBeGreaterThan(1)
		await deps.database.rows(sql`update applications set stage_key = 'offer' where id = ${ids[0]}`)
		await deps.database.rows(sql`update applications set outcome = 'rejected' where id = ${ids[1]}`)
		await deps.database.rows(sql`update applications set stage_key = 'hired', outcome = 'hired' where id = ${ids[2]}`)
		await deps.database.rows(sql`update applications set kind = 'applicant' where id = ${ids[5]}`)
		await deps.database.rows(sql`update applications set created_at = created_at - interval '3 days' where id = ${ids[3]}`)
		// An update that touches none of the counted columns changes no counter.
		await deps.database.rows(sql`update applications set shortlist = 'shortlisted', archived = true where id = ${ids[4]}`)
		await deps.database.rows(sql`update applications set workspace_id = ${other.id}, job_id = ${otherJob} where id = ${ids[4]}`)
		await deps.database.rows(sql`delete from applications where id = ${ids[1]}`)
		for (const w of [ws, other]) {
			const { counters, truth } = await countersAndTruth(w.id)
			expect(counters).toEqual(truth)
		}
	})

	test.if(usingPostgres())('two moves in opposite directions on the same day do not deadlock (PostgreSQL)', async () => {
		const ws = await newWorkspace(deps)
		const job = await newVendorJob(ws, {}, deps)
		const day = new Date(Date.UTC(2026, 3, 2, 9))
		const moving = await application(ws, job, { at: day, stage: 'screening' })
		const [c1, c2] = [await newCandidate(ws, { resume: false }, deps), await newCandidate(ws, { resume: false }, deps)]
		const insert = (candidateId: string, stage: string) =>
			sql`insert into applications (id, workspace_id, candidate_id, job_id, stage_key, created_at) values (${newId('app')}, ${ws.id}, ${candidateId}, ${job}, ${stage}, ${day.toISOString()}::timestamptz)`
		// T1 holds the counter (day, applied), then wants (day, screening). Meanwhile T2 moves an
		// application from screening to applied. Counters taken in key order: T2 waits for (day,
		// applied) holding nothing, and T1 goes on. Taken old-first, T2 would hold (day, screening)
		// while waiting for T1: a deadlock, and one of them would fail.
		let holding!: () => void
		const held = new Promise<void>((resolve) => (holding = resolve))
		const t1 = deps.db.transaction(async (tx) => {
			await deps.database.rows(insert(c1, 'applied'), tx)
			holding()
			await new Promise((r) => setTimeout(r, 500))
			await deps.database.rows(insert(c2, 'screening'), tx)
		})
		await held
		const t2 = deps.database.rows(sql`update applications set stage_key = 'applied' where id = ${moving}`)
		await Promise.all([t1, t2])
		const { counters, truth } = await countersAndTruth(ws.id)
		expect(counters).toEqual(truth)
	})
})

describe('applicationFunnel', () => {
	let ws: TestWorkspace
	let owner: Actor
	let manager: Actor
	let jobs: string[]
	// A period with partial days at both ends: 10 days from 15:00 to 15:00.
	const to = new Date(Date.UTC(2026, 4, 20, 15))
	const from = new Date(to.getTime() - 10 * DAY)

	beforeAll(async () => {
		ws = await newWorkspace(deps)
		jobs = [await newVendorJob(ws, { title: 'Java Developer' }, deps), await newVendorJob(ws, { title: 'QA Engineer' }, deps)]
		owner = await personActor(deps, ws.slug, (await newPerson(ws, 'owner', {}, deps)).email)
		const hm = await newPerson(ws, 'hiring_manager', {}, deps)
		manager = await personActor(deps, ws.slug, hm.email)
		await deps.db.insert(jobTeam).values(jobs.map((jobId) => ({ jobId, userId: hm.userId, teamRole: 'hiring_manager' })))
		const at = (days: number, hours = 0) => new Date(from.getTime() + days * DAY + hours * HOUR)
		// Outside the period: just before it, on its first day; just after it, on its last day.
		await application(ws, jobs[0]!, { at: new Date(from.getTime() - 60_000), stage: 'hired', outcome: 'hired' })
		await application(ws, jobs[0]!, { at: new Date(to.getTime() + 60_000), stage: 'offer' })
		// Inside: on the partial first day, on whole days, on the partial last day.
		await application(ws, jobs[0]!, { at: new Date(from.getTime() + 60_000), stage: 'screening', stageChangedAt: new Date(from.getTime() + 5 * HOUR) })
		await application(ws, jobs[0]!, { at: at(2), stage: 'submitted', stageChangedAt: at(5) })
		await application(ws, jobs[1]!, { at: at(3), stage: 'client_interview', stageChangedAt: at(4) })
		await application(ws, jobs[1]!, { at: at(4), stage: 'hired', outcome: 'hired', stageChangedAt: at(20) })
		await application(ws, jobs[1]!, { at: at(4, 1), stage: 'applied', outcome: 'rejected' })
		await application(ws, jobs[1]!, { at: at(5), stage: 'applied' })
		await application(ws, jobs[1]!, { at: at(6), stage: 'offer', kind: 'lead' })
		// Moved on and back: still in the first stage, but answered at its first logged move.
		const back = await application(ws, jobs[0]!, { at: at(7), stage: 'applied', stageChangedAt: at(9) })
		await recordActivity(deps.db, owner, {
			action: 'application.stage_changed',
			targetType: 'application',
			targetId: back,
			detail: { from: 'applied', to: 'screening' },
		})
		await deps.database.rows(sql`update activity set at = ${at(7, 2).toISOString()}::timestamptz where target_id = ${back}`)
		await application(ws, jobs[0]!, { at: new Date(to.getTime() - 60_000), stage: 'applied' })
	})

	/** The funnel as the applications table says it is (independent of the service). */
	async function truth(jobIds?: string[]) {
		const rows = await deps.database.rows<{ stage: string; outcome: string | null }>(
			sql`select stage_key as stage, outcome from applications where workspace_id = ${ws.id} and kind = 'applicant' and created_at >= ${from.toISOString()}::timestamptz and created_at < ${to.toISOString()}::timestamptz${
				jobIds
					? sql` and job_id in (${sql.join(
							jobIds.map((j) => sql`${j}`),
							sql`, `,
						)})`
					: sql``
			}`,
		)
		const order = ['applied', 'screening', 'submitted', 'client_interview', 'offer', 'hired']
		return {
			received: rows.length,
			reached: Object.fromEntries(order.map((k, i) => [k, rows.filter((r) => r.outcome === 'hired' || order.indexOf(r.stage) >= i).length])),
		}
	}

	test('applicants received in the period (partial first and last days included) and the furthest stage each reached', async () => {
		const f = await applicationFunnel(deps, owner, { from, to })
		const t = await truth()
		expect(t.received).toBe(8)
		expect(f.received).toBe(t.received)
		expect(Object.fromEntries(f.stages.map((s) => [s.key, s.reached]))).toEqual(t.reached)
		expect(f.stages.map((s) => s.label)).toEqual(['Applied', 'Screening', 'Submitted to client', 'Client interview', 'Offer', 'Hired'])
	})

	test('a hiring manager’s funnel (counted from the applications) equals the counters’ for the same jobs; jobs off their team are left out', async () => {
		const all = await applicationFunnel(deps, manager, { from, to })
		const owners = await applicationFunnel(deps, owner, { from, to })
		expect(all).toEqual(owners)
		await deps.database.rows(sql`delete from job_team where job_id = ${jobs[1]!} and user_id = ${manager.userId}`)
		try {
			const one = await applicationFunnel(deps, manager, { from, to })
			const t = await truth([jobs[0]!])
			expect([one.received, Object.fromEntries(one.stages.map((s) => [s.key, s.reached]))]).toEqual([t.received, t.reached])
			expect(one.received).toBeLessThan(owners.received)
		} finally {
			await deps.db.insert(jobTeam).values({ jobId: jobs[1]!, userId: manager.userId!, teamRole: 'hiring_manager' })
		}
	})

	test('waiting times: the first logged move, else the stage change; waiting ones and ones closed unmoved apart', async () => {
		const r = (await applicationFunnel(deps, owner, { from, to })).responses
		// Answered: screening after 5 h, submitted after 3 d, interview after 1 d, hired after 16 d, moved and back after 2 h.
		expect({ measured: r.measured, sampled: r.sampled, answered: r.answered, waiting: r.waiting, closed: r.closedUnmoved }).toEqual({
			measured: 8,
			sampled: false,
			answered: 5,
			waiting: 2,
			closed: 1,
		})
		expect(r.bands.map((b) => [b.label, b.count])).toEqual([
			['Within a day', 2],
			['1 to 3 days', 1],
			['3 to 7 days', 1],
			['1 to 2 weeks', 0],
			['Over 2 weeks', 1],
		])
		expect(r.medianHours).toBe(24)
	})

	test(`at most ${PER_DAY} applications of a day are measured, and the result says so`, async () => {
		const busy = await newWorkspace(deps)
		const job = await newVendorJob(busy, {}, deps)
		const actor = await personActor(deps, busy.slug, (await newPerson(busy, 'recruiter', {}, deps)).email)
		const day = new Date(Date.UTC(2026, 5, 1))
		for (let i = 0; i < PER_DAY + 5; i++)
			await application(busy, job, {
				at: new Date(day.getTime() + i * 60_000),
				stage: i < 3 ? 'screening' : 'applied',
				stageChangedAt: new Date(day.getTime() + HOUR),
			})
		const f = await applicationFunnel(deps, actor, { from: day, to: new Date(day.getTime() + 2 * DAY) })
		expect([f.received, f.responses.measured, f.responses.sampled, f.responses.answered]).toEqual([PER_DAY + 5, PER_DAY, true, 3])
	})
})
