/**
 * The candidate list's Availability filter: people on the bench who can start now, or within 14 or
 * 30 days (a bench entry without a start date means now; days are calendar days, UTC, as the
 * bench's own list shows them). People not on the bench have no known availability and are left out.
 */
import { sql } from 'drizzle-orm'
import type { CandidateListFilter } from '../candidates/index.ts'

const DAY = 86_400_000
const WITHIN: Record<string, number> = { now: 0, '14': 14, '30': 30 }

export const availabilityFilter: CandidateListFilter = {
	key: 'availability',
	label: 'Availability',
	usable: (deps, actor) => deps.permissions.can(actor, 'bench:read'),
	options: [
		['now', 'On the bench, available now'],
		['14', 'On the bench, available within 14 days'],
		['30', 'On the bench, available within 30 days'],
	],
	where(deps, actor, value) {
		const last = new Date(deps.now().getTime() + (WITHIN[value] ?? 0) * DAY).toISOString().slice(0, 10)
		return sql`exists (select 1 from bench_entries b where b.workspace_id = ${actor.workspaceId} and b.candidate_id = c.id and (b.available_from is null or b.available_from <= ${last}::date))`
	},
}
