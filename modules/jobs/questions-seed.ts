/** Demo screening questions: most open jobs ask two or three, as staffing firms' apply forms do. */
import type { AppDeps } from '../../core/deps.ts'
import type { WorkspaceRef } from '../../core/module.ts'
import { seededId } from '../../core/seed-random.ts'
import { jobQuestions } from './table.ts'

export async function seedJobQuestions(deps: AppDeps, ws: WorkspaceRef, jobs: { id: string; mustHave: string[] }[]): Promise<void> {
	const rows = []
	for (const [i, job] of jobs.entries()) {
		if (i % 4 === 3) continue
		const skill = job.mustHave.find((m) => !/years/i.test(m)) ?? 'this kind of work'
		const questions = [
			{ prompt: 'Are you authorized to work in the US without visa sponsorship?', kind: 'yes_no', required: true },
			{ prompt: `How many years of hands-on experience do you have with ${skill}?`, kind: 'text', required: true },
			...(i % 2 === 0 ? [{ prompt: 'When could you start, and what hourly rate do you expect?', kind: 'text', required: false }] : []),
		]
		for (const [position, q] of questions.entries())
			rows.push({ id: seededId('jq', ws.id, `${job.id}-${position}`), jobId: job.id, position: position + 1, ...q })
	}
	if (rows.length) await deps.db.insert(jobQuestions).values(rows).onConflictDoNothing()
}
