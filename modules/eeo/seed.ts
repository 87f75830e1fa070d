/**
 * Demo answers for the seeded applicants, so the EEO report of the demo workspace has counts to show:
 * each applicant's answers follow from their application id (the same on every seed), and about a
 * third did not wish to answer each question, as on real forms.
 */
import { createHash } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { AppDeps } from '../../core/deps.ts'
import type { WorkspaceRef } from '../../core/module.ts'
import { DECLINED, EEO_QUESTIONS, type EeoAnswers } from './questions.ts'
import { eeoSelfIdentification } from './table.ts'

function answersFor(applicationId: string): EeoAnswers {
	const hash = createHash('sha256').update(applicationId).digest()
	const answers = {} as EeoAnswers
	EEO_QUESTIONS.forEach((q, i) => {
		const byte = hash[i]!
		const given = q.options.filter(([code]) => code !== DECLINED)
		answers[q.key] = byte % 3 === 0 ? DECLINED : given[byte % given.length]![0]
	})
	return answers
}

export async function seedSelfIdentification(deps: AppDeps, ws: WorkspaceRef) {
	const applicants = await deps.database.rows<{ id: string; jobId: string }>(
		sql`select a.id, a.job_id as "jobId" from applications a where a.workspace_id = ${ws.id} and a.kind = 'applicant'
		and not exists (select 1 from ${eeoSelfIdentification} where ${eeoSelfIdentification.applicationId} = a.id)`,
	)
	if (!applicants.length) return
	await deps.db
		.insert(eeoSelfIdentification)
		.values(applicants.map((a) => ({ applicationId: a.id, workspaceId: ws.id, jobId: a.jobId, ...answersFor(a.id) })))
		.onConflictDoNothing()
}
