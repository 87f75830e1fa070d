/**
 * This module's part of a candidate's data. The self-identification answers are never shown to
 * anyone but as counts, so the export only says they are kept apart; erasure deletes them, except
 * under a legal hold: they are anonymous codes of the applicant-flow record the hold keeps, deleted
 * when it ends.
 */
import type { CandidateDataSource } from '../candidates/index.ts'
import { forgetSelfIdentification } from './service.ts'

export const eeoData: CandidateDataSource = {
	key: 'selfIdentification',
	tables: ['eeo_self_identification'],
	async export() {
		return { data: 'Voluntary self-identification answers are kept apart and shown to no one, only counted in the EEO report.' }
	},
	async erase(_deps, tx, s, { hold }) {
		if (!hold) await forgetSelfIdentification(tx, s.workspaceId, s.applicationIds)
		return undefined
	},
	async released(_deps, tx, workspaceId, applicationIds) {
		await forgetSelfIdentification(tx, workspaceId, applicationIds)
	},
}
