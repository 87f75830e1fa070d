/**
 * Demo scorecards: on applications past screening (submitted to the client and later), one or two
 * interviewers (owners, admins, recruiters) each rate the job's must-haves and recommend. Seeded
 * ids and choices: a second run adds nothing.
 */
import type { AppDeps } from '../../core/deps.ts'
import type { WorkspaceRef } from '../../core/module.ts'
import { seededId, seededRandom } from '../../core/seed-random.ts'
import { cleanLine } from '../../core/untrusted.ts'
import { listPeople } from '../auth/index.ts'
import { workspaceApplications } from '../candidates/index.ts'
import { jobRequirements } from '../jobs/index.ts'
import { MAX_ATTRIBUTE, type Recommendation } from './service.ts'
import { scorecards } from './table.ts'

const LATER_STAGES = new Set(['submitted', 'client_interview', 'offer', 'hired'])
const NOTES = [
	'Clear on the architecture of their last project; walked through trade-offs without prompting. Would like a second opinion on depth in testing.',
	'Strong communicator. Hands-on experience matches the must-haves; a little vague on production support.',
	'Good fundamentals but mostly maintenance work so far. Could grow into the role with a senior pair.',
	'Answered the scenario questions well and asked good questions about the client’s team. Rate expectations fit the budget.',
]

export async function seedScorecards(deps: AppDeps, ws: WorkspaceRef): Promise<void> {
	const people = (await listPeople(deps.db, ws.id)).filter((p) => ['owner', 'admin', 'recruiter'].includes(p.role))
	if (!people.length) return
	const apps = (await workspaceApplications(deps, ws.id)).filter((a) => LATER_STAGES.has(a.stageKey))
	const jobs = await jobRequirements(deps, ws.id, [...new Set(apps.map((a) => a.jobId))])
	const rows = []
	for (const a of apps) {
		const rnd = seededRandom(`scorecards:${ws.id}:${a.id}`)
		const job = jobs.get(a.jobId)
		if (!job) continue
		const strength = rnd.int(1, 4)
		for (const [n, person] of rnd.sample(people, rnd.int(1, Math.min(2, people.length))).entries()) {
			const ratings = job.mustHave
				.map((m) => cleanLine(m, MAX_ATTRIBUTE))
				.filter(Boolean)
				.map((attribute) => ({ attribute, rating: Math.min(5, Math.max(1, strength + rnd.int(0, 1))) }))
			const recommendation: Recommendation = (['strong_no', 'no', 'yes', 'strong_yes'] as const)[Math.min(3, strength - 1 + rnd.int(0, 1))]!
			const at = new Date(a.createdAt.getTime() + (2 + n) * 86_400_000)
			rows.push({
				id: seededId('scd', ws.id, `${a.id}:${person.userId}`),
				workspaceId: ws.id,
				applicationId: a.id,
				authorUserId: person.userId,
				ratings,
				attributesBy: job.vendorId ? 'vendor' : 'colleague',
				attributesByUserId: job.vendorId ? null : job.createdByUserId,
				recommendation,
				notes: rnd.chance(0.7) ? rnd.pick(NOTES) : null,
				createdAt: at,
				updatedAt: at,
			})
		}
	}
	if (rows.length) await deps.db.insert(scorecards).values(rows).onConflictDoNothing()
}
