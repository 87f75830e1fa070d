/**
 * The outbox's record that a candidate unsubscribed from marketing mail (`outbox_unsubscribes`, by
 * candidate id), as candidate data: in their export, and deleted when they are erased. The outbox
 * cannot contribute to the candidate-data port itself (the candidates module requires the outbox),
 * so this module, which requires both, does it with the outbox's functions.
 */
import type { CandidateDataSource } from '../candidates/index.ts'
import { forgetUnsubscribe, unsubscribedAt } from '../outbox/index.ts'

const recipient = (candidateId: string) => ({ type: 'candidate', id: candidateId })

export const marketingMailData: CandidateDataSource = {
	key: 'marketingMail',
	tables: ['outbox_unsubscribes'],
	async export(_deps, db, subject) {
		const at = await unsubscribedAt(db, subject.workspaceId, recipient(subject.candidateId))
		return { data: { unsubscribedAt: at?.toISOString() ?? null } }
	},
	async erase(_deps, tx, subject) {
		await forgetUnsubscribe(tx, subject.workspaceId, recipient(subject.candidateId))
		return undefined
	},
}
