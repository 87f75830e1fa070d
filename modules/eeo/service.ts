/**
 * Reading the self-identification part of the apply form and writing it apart from the application.
 * An answer that is not one of the listed ones is refused on its field; a question left alone is
 * "I don't wish to answer".
 */
import { sql } from 'drizzle-orm'
import type { FieldError } from '../../core/errors.ts'
import type { Db } from '../../db/client.ts'
import { DECLINED, EEO_QUESTIONS, type EeoAnswers } from './questions.ts'
import { eeoSelfIdentification } from './table.ts'
import { inList } from '../../core/sql-list.ts'

export const fieldOf = (key: string) => `eeo_${key}`

export function readSelfIdentification(fields: Record<string, unknown>): { answers: EeoAnswers; errors: FieldError[] } {
	const errors: FieldError[] = []
	const answers = {} as EeoAnswers
	for (const q of EEO_QUESTIONS) {
		const given = fields[fieldOf(q.key)]
		const code = typeof given === 'string' && given !== '' ? given : DECLINED
		if (q.options.some(([c]) => c === code)) answers[q.key] = code
		else {
			answers[q.key] = DECLINED
			errors.push({ field: fieldOf(q.key), message: `Choose one of the listed answers for “${q.label}” (or “I don’t wish to answer”)` })
		}
	}
	return { answers, errors }
}

/** Writes an application's answers in the application's transaction (`ApplyInput.alongside`). */
export async function recordSelfIdentification(tx: Db, application: { workspaceId: string; applicationId: string; jobId: string }, answers: EeoAnswers) {
	await tx
		.insert(eeoSelfIdentification)
		.values({ ...application, ...answers })
		.onConflictDoNothing()
}

/** Deletes one application's answers (the application itself is going). */
export async function forgetSelfIdentification(tx: Db, workspaceId: string, applicationIds: readonly string[]) {
	if (!applicationIds.length) return
	await tx.execute(sql`delete from ${eeoSelfIdentification} where workspace_id = ${workspaceId} and application_id in ${inList(applicationIds)}`)
}
