/** Demo bench: about forty candidates across the role families, some for a job, some available later. */
import type { AppDeps } from '../../core/deps.ts'
import type { WorkspaceRef } from '../../core/module.ts'
import { seededId, seededRandom } from '../../core/seed-random.ts'
import { listPeople } from '../auth/index.ts'
import { DEMO_CANDIDATES, demoCandidateId } from '../candidates/index.ts'
import { ROLE_TEMPLATES, workspaceJobs } from '../jobs/index.ts'
import { benchEntries } from './table.ts'

export async function seedBench(deps: AppDeps, ws: WorkspaceRef): Promise<void> {
	const rnd = seededRandom(`bench:${ws.id}`)
	const people = (await listPeople(deps.db, ws.id)).map((p) => p.userId).sort()
	const jobs = await workspaceJobs(deps, ws.id)
	const rows = []
	for (let k = 0; k < 40; k++) {
		// Demo candidate i has the role family of ROLE_TEMPLATES[i % length] (see the candidates seed).
		const i = (k * 7 + 3) % DEMO_CANDIDATES
		const family = ROLE_TEMPLATES[i % ROLE_TEMPLATES.length]!.family
		const familyJobs = jobs.filter((j) => ROLE_TEMPLATES.some((t) => t.family === family && t.title === j.title))
		const days = rnd.chance(0.5) ? 0 : rnd.int(3, 45)
		rows.push({
			id: seededId('bench', ws.id, `bench-${k}`),
			workspaceId: ws.id,
			candidateId: demoCandidateId(ws, i),
			roleFamily: family,
			jobId: familyJobs.length && rnd.chance(0.3) ? rnd.pick(familyJobs).id : null,
			addedByUserId: people.length ? rnd.pick(people) : null,
			availableFrom: days ? new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10) : null,
			hourlyRate: 55 + rnd.int(0, 13) * 5,
			addedAt: new Date(Date.now() - (60 - k) * 86_400_000),
		})
	}
	await deps.db.insert(benchEntries).values(rows).onConflictDoNothing()
}
