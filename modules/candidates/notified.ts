/**
 * Candidates named in notifications (a mention in a note on a candidate): only for a reader who can
 * open the candidate now, by the same rules as the candidate page and the search (`candidates:read`,
 * then `candidateReach`); anyone else gets nothing, as for an absent candidate.
 */
import { textOf } from '../../core/untrusted.ts'
import type { NotifiedRecords } from '../notifications/index.ts'
import { candidateCards } from './public.ts'

export const notifiedCandidates: NotifiedRecords = {
	type: 'candidate',
	async names(deps, actor, ids) {
		if (!deps.permissions.can(actor, 'candidates:read')) return new Map()
		const cards = await candidateCards(deps, actor, ids)
		return new Map([...cards].map(([id, card]) => [id, { name: textOf(card.name), href: `/candidates/${id}` }]))
	},
}
